package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestChargeWithoutHoldIsAvailableAtOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, 0)
	paidAt := time.Now().Add(-time.Minute).Truncate(time.Microsecond)
	c := payCharge(t, db, in, 10000, paidAt)
	if w := wallet(t, db, in.ID); w.Available != 9850 || w.Pending != 0 {
		t.Fatalf("wallet = %+v, want 98.50 available, nothing pending", w)
	}
	if c.AvailableAt == nil || !c.AvailableAt.Equal(paidAt) || c.ReleasedAt == nil || c.HeldAmount != 0 {
		t.Fatalf("charge available_at %v released_at %v held %v, want available at payment, released", c.AvailableAt, c.ReleasedAt, c.HeldAmount)
	}
	if got := releaseAll(t, db); got != 0 {
		t.Fatalf("released %v of a charge paid without a hold", got)
	}
	mustAuditClean(t, db)
}

func TestHeldChargeIsPendingUntilItsHoldEnds(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 24*time.Hour)
	paidAt := time.Now().Truncate(time.Microsecond)
	c := payCharge(t, db, in, 10000, paidAt)
	if w := wallet(t, db, in.ID); w.Available != 0 || w.Pending != 9850 {
		t.Fatalf("wallet = %+v, want 98.50 pending", w)
	}
	if want := paidAt.Add(24 * time.Hour); c.AvailableAt == nil || !c.AvailableAt.Equal(want) || c.HeldAmount != 9850 || c.ReleasedAt != nil {
		t.Fatalf("charge available_at %v held %v released_at %v, want %v, 98.50, unreleased", c.AvailableAt, c.HeldAmount, c.ReleasedAt, want)
	}
	if ids, _ := db.DueReleases(ctx, 10); len(ids) != 0 {
		t.Fatalf("due releases = %v before the hold ended", ids)
	}
	if r, err := db.ReleaseCharge(ctx, c.ID); r != 0 || err != nil {
		t.Fatalf("release before the hold ended = %v, %v", r, err)
	}
	mustAuditClean(t, db)
}

// TestReleaseOnceWithWorkersRacing: 40 charges whose hold has ended; four
// workers run the release step at once, twice each. Every charge is
// released exactly once, by one posting.
func TestReleaseOnceWithWorkersRacing(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	const n = 40
	for range n {
		payCharge(t, db, in, 10000, time.Now().Add(-2*time.Hour))
	}
	notDue := payCharge(t, db, in, 2000, time.Now())
	if w := wallet(t, db, in.ID); w.Pending != n*9850+1970 {
		t.Fatalf("pending = %v before release", w.Pending)
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		released money.Money
		start    = make(chan struct{})
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range 2 {
				r := releaseAll(t, db)
				mu.Lock()
				released += r
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if released != n*9850 {
		t.Fatalf("released %v in all, want %v", released, money.Money(n*9850))
	}
	if w := wallet(t, db, in.ID); w.Available != n*9850 || w.Pending != 1970 {
		t.Fatalf("wallet = %+v, want every due net available and the other still pending", w)
	}
	var postings int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM ledger_transactions WHERE kind = 'charge.release'`).Scan(&postings); err != nil {
		t.Fatal(err)
	}
	if postings != n {
		t.Fatalf("%d release postings, want %d", postings, n)
	}
	if c := chargeByID(t, db, notDue.ID); c.HeldAmount != 1970 || c.ReleasedAt != nil {
		t.Fatalf("charge not yet due was released: %+v", c)
	}
	mustAuditClean(t, db)
}

// TestLatePaymentOfExpiredChargeIsHeld: a charge that expired and was then
// confirmed paid is held like any other, from its payment time.
func TestLatePaymentOfExpiredChargeIsHeld(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	c := newCharge(t, db, in, 3000)
	if err := db.InTx(ctx, func(tx *storage.Tx) error { _, _, err := tx.ExpireCharge(ctx, c.ID); return err }); err != nil {
		t.Fatal(err)
	}
	paidAt := time.Now().Add(-30 * time.Minute).Truncate(time.Microsecond)
	c = markPaid(t, db, c.ID, paidAt)
	if c.Status != storage.ChargePaid || c.HeldAmount != 3000-45 || !c.AvailableAt.Equal(paidAt.Add(time.Hour)) {
		t.Fatalf("late payment: status %s held %v available_at %v", c.Status, c.HeldAmount, c.AvailableAt)
	}
	if w := wallet(t, db, in.ID); w.Pending != 3000-45 || w.Available != 0 {
		t.Fatalf("wallet = %+v, want the net pending", w)
	}
	mustAuditClean(t, db)
}

func TestChangingTheHoldAppliesToChargesPaidAfter(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 24*time.Hour)
	paidAt := time.Now().Truncate(time.Microsecond)
	before := payCharge(t, db, in, 10000, paidAt)
	got, held, err := db.SetCashInHold(ctx, in.ID, 0)
	if err != nil || got.CashInHold != 0 || held != 1 {
		t.Fatalf("SetCashInHold = %v held %d, %v; want no hold, 1 charge held", got.CashInHold, held, err)
	}
	after := payCharge(t, db, in, 10000, paidAt)
	if c := chargeByID(t, db, before.ID); c.HeldAmount != 9850 || !c.AvailableAt.Equal(paidAt.Add(24*time.Hour)) {
		t.Fatalf("charge held before the change: held %v available_at %v, want it kept", c.HeldAmount, c.AvailableAt)
	}
	if after.HeldAmount != 0 || after.ReleasedAt == nil {
		t.Fatalf("charge paid after the change is held: %+v", after)
	}
	if w := wallet(t, db, in.ID); w.Available != 9850 || w.Pending != 9850 {
		t.Fatalf("wallet = %+v", w)
	}
	for _, bad := range []time.Duration{-time.Second, storage.MaxCashInHold + time.Second} {
		if _, _, err := db.SetCashInHold(ctx, in.ID, bad); !errors.Is(err, storage.ErrInvalidHold) {
			t.Errorf("hold %v: err = %v, want ErrInvalidHold", bad, err)
		}
	}
	if _, _, err := db.SetCashInHold(ctx, in.ID+1000, time.Hour); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("unknown integrator: err = %v, want ErrNotFound", err)
	}
	if in2, _ := db.Integrator(ctx, in.ID); in2.CashInHold != 0 {
		t.Fatalf("hold read back = %v", in2.CashInHold)
	}
	mustAuditClean(t, db)
}
