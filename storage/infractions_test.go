package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// openInfraction records provider infraction pid disputing amount of the
// charge, as the worker does once the provider confirms it.
func openInfraction(t *testing.T, db *storage.DB, chargeID uuid.UUID, pid string, amount money.Money) (storage.Infraction, bool) {
	t.Helper()
	ctx := context.Background()
	id, _ := uuid.NewV7()
	var (
		inf     storage.Infraction
		created bool
	)
	err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
		inf, created, err = tx.OpenInfraction(ctx, storage.NewInfraction{ID: id, ChargeID: chargeID, ProviderID: pid, Amount: amount,
			Reason: "golpe", ReportedAt: time.Now(), DueAt: time.Now().Add(7 * 24 * time.Hour)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return inf, created
}

func closeInfraction(t *testing.T, db *storage.DB, id uuid.UUID, status storage.InfractionStatus) (storage.Infraction, *storage.Transfer, bool) {
	t.Helper()
	ctx := context.Background()
	retID, _ := uuid.NewV7()
	var (
		inf     storage.Infraction
		ret     *storage.Transfer
		changed bool
	)
	err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
		inf, ret, changed, err = tx.CloseInfraction(ctx, id, storage.InfractionClosing{Status: status, Analysis: "analisado", MedReturnID: retID,
			Outbox: []storage.OutboxMessage{{Type: "med_return:send", ID: "med_return:send:" + retID.String(), Payload: []byte(`{}`)}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return inf, ret, changed
}

// An infraction blocks what it disputes at once, from available; the same
// infraction arriving again changes nothing; disagreed, it is released once.
func TestInfractionBlocksAtOnceAndDisagreedReleases(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	c := payCharge(t, db, in, 10000, time.Now()) // net 98.50
	inf, created := openInfraction(t, db, c.ID, "inf-1", 6000)
	if !created || inf.Blocked != 6000 || inf.Shortfall() != 0 || inf.Status != storage.InfractionOpen {
		t.Fatalf("opened %+v, created %v", inf, created)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3850, Blocked: 6000})
	if again, created := openInfraction(t, db, c.ID, "inf-1", 6000); created || again.ID != inf.ID {
		t.Fatalf("the same infraction again: created %v, id %s, want the first (%s)", created, again.ID, inf.ID)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 3850, Blocked: 6000})
	if !chargeByID(t, db, c.ID).Disputed {
		t.Fatal("the charge is not shown as disputed")
	}
	mustAuditClean(t, db)

	closed, ret, changed := closeInfraction(t, db, inf.ID, storage.InfractionDisagreed)
	if !changed || ret != nil || closed.Status != storage.InfractionDisagreed || closed.ClosedAt == nil {
		t.Fatalf("closed %+v, return %v, changed %v", closed, ret, changed)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 9850})
	if _, _, changed := closeInfraction(t, db, inf.ID, storage.InfractionAgreed); changed {
		t.Fatal("a closed infraction closed again")
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 9850})
	mustAuditClean(t, db)
}

// An infraction on money already withdrawn blocks what is left and records
// the rest as its shortfall; no balance goes negative.
func TestInfractionOnWithdrawnMoneyRecordsTheShortfall(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	c := payCharge(t, db, in, 10000, time.Now())
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 9000, 50, "w1")); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-2", 10000)
	if inf.Blocked != 800 || inf.Shortfall() != 9200 {
		t.Fatalf("blocked %s, shortfall %s; want 8.00 and 92.00", inf.Blocked, inf.Shortfall())
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 9050, Blocked: 800})
	mustAuditClean(t, db)

	// Nothing available at all: nothing is blocked, nothing is posted.
	c2 := payCharge(t, db, in, 1000, time.Now())
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 985, 0, "w2")); err != nil {
		t.Fatal(err)
	}
	inf2, _ := openInfraction(t, db, c2.ID, "inf-3", 1000)
	if inf2.Blocked != 0 || inf2.Shortfall() != 1000 {
		t.Fatalf("blocked %s, shortfall %s; want 0 and 10.00", inf2.Blocked, inf2.Shortfall())
	}
	// Agreed, the provider returns it all the same: a MED return of the
	// whole 10.00, all of it the integrator's debt.
	if _, ret, changed := closeInfraction(t, db, inf2.ID, storage.InfractionAgreed); !changed || ret == nil || ret.Amount != 1000 {
		t.Fatalf("an agreed infraction that blocked nothing: changed %v, return %+v; want a MED return of 10.00", changed, ret)
	}
	if w := wallet(t, db, in.ID); w.Debt != 1000 || w.Reserved != 9050+985+1000 {
		t.Fatalf("wallet %+v; want a debt of 10.00 and the MED return reserved", w)
	}
	mustAuditClean(t, db)
}

// Agreed, the blocked money is reserved for a MED return, which completes
// once; the charge is then REFUNDED.
func TestAgreedInfractionLeavesAsOneMedReturn(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 500, "float"); err != nil {
		t.Fatal(err)
	}
	c := payCharge(t, db, in, 10000, time.Now())
	inf, _ := openInfraction(t, db, c.ID, "inf-4", 10000)
	closed, ret, changed := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if !changed || ret == nil || ret.Kind != storage.KindMedReturn || ret.Amount != 10000 || ret.Status != storage.TransferProcessing ||
		closed.MedReturnID == nil || *closed.MedReturnID != ret.ID || ret.ChargePixID != *c.PixID {
		t.Fatalf("closed %+v, return %+v", closed, ret)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 350, Reserved: 10000})
	if got := chargeByID(t, db, c.ID); got.RefundedAmount != 10000 || got.Status != storage.ChargePaid || got.Disputed {
		t.Fatalf("charge while the return is in flight: %+v", got)
	}
	mustAuditClean(t, db)
	for range 2 {
		err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, storage.KindMedReturn, ret.ID, storage.Settlement{PixID: "ret-1", At: time.Now()})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 350})
	if got := chargeByID(t, db, c.ID); got.Status != storage.ChargeRefunded {
		t.Fatalf("charge after the MED return: %s, want REFUNDED", got.Status)
	}
	mustAuditClean(t, db)
}

// An infraction on a charge still under its settlement hold blocks the
// charge's held net first; released before the hold ends, it goes back
// there, and the release later moves it.
func TestInfractionOnAHeldCharge(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "float"); err != nil {
		t.Fatal(err)
	}
	c := payCharge(t, db, in, 10000, time.Now()) // 98.50 held
	inf, _ := openInfraction(t, db, c.ID, "inf-5", 10000)
	if inf.FromPending != 9850 || inf.Blocked != 10000 {
		t.Fatalf("from pending %s, blocked %s", inf.FromPending, inf.Blocked)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 850, Blocked: 10000})
	mustAuditClean(t, db)
	closeInfraction(t, db, inf.ID, storage.InfractionCancelled)
	wantWallet(t, db, in.ID, storage.Wallet{Available: 1000, Pending: 9850})
	if got := chargeByID(t, db, c.ID).HeldAmount; got != 9850 {
		t.Fatalf("held %s after the release, want 98.50", got)
	}
	mustAuditClean(t, db)
}

// Workers and notifications race: twenty open the same infraction, then
// twenty close it, half agreeing and half not. One opens it, one closes
// it, and the books agree.
func TestInfractionStepsHappenOnceUnderRaces(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	c := payCharge(t, db, in, 10000, time.Now())
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		opened  int
		closing []storage.InfractionStatus
		id      uuid.UUID
	)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inf, created := openInfraction(t, db, c.ID, "inf-race", 5000)
			mu.Lock()
			defer mu.Unlock()
			id = inf.ID
			if created {
				opened++
			}
		}()
	}
	wg.Wait()
	if opened != 1 {
		t.Fatalf("opened %d times", opened)
	}
	for i := range 20 {
		status := storage.InfractionAgreed
		if i%2 == 1 {
			status = storage.InfractionDisagreed
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if inf, _, changed := closeInfraction(t, db, id, status); changed {
				mu.Lock()
				closing = append(closing, inf.Status)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(closing) != 1 {
		t.Fatalf("closed %d times: %v", len(closing), closing)
	}
	w := wallet(t, db, in.ID)
	if w.Blocked != 0 || w.Available+w.Reserved != 9850 {
		t.Fatalf("wallet %+v after the close", w)
	}
	mustAuditClean(t, db)
}

// An infraction on a charge PixGate has not seen paid waits: nothing is
// written.
func TestInfractionOnAnUnpaidCharge(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	c := newCharge(t, db, newIntegrator(t, db), 10000)
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.OpenInfraction(ctx, storage.NewInfraction{ID: uuid.New(), ChargeID: c.ID, ProviderID: "x", Amount: 100})
		return err
	})
	if !errors.Is(err, storage.ErrChargeNotPaid) {
		t.Fatalf("err = %v, want ErrChargeNotPaid", err)
	}
}

// The audit names a blocked balance its open infractions do not explain.
func TestAuditCatchesBlockedThatDoesNotMatch(t *testing.T) {
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	c := payCharge(t, db, in, 10000, time.Now())
	inf, _ := openInfraction(t, db, c.ID, "inf-6", 3000)
	mustAuditClean(t, db)
	if _, err := db.Pool().Exec(context.Background(), `UPDATE infractions SET status = 'DISAGREED', closed_at = now() WHERE id = $1`, inf.ID); err != nil {
		t.Fatal(err)
	}
	v, err := db.Audit(context.Background())
	if err != nil || len(v) != 1 || v[0].Check != "blocked_mismatch" {
		t.Fatalf("audit = %v, %v; want one blocked_mismatch", v, err)
	}
}

// An agreed infraction gives the payer back what it disputes, through the
// provider, whatever PixGate could block of it: the shortfall too is
// counted as refunded, so the charge is REFUNDED once the MED return
// completes and nothing of it can be refunded again (the payer would be
// paid twice); one that blocked nothing counts at once. A MED return the
// provider reports failed makes the whole counted amount refundable again.
func TestAgreedInfractionWithAShortfallLeavesNothingToRefund(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	refund := func(c storage.Charge, amount money.Money) error {
		_, _, err := db.CreateRefund(ctx, newRefund(in, c, amount, ""))
		return err
	}
	complete := func(kind storage.TransferKind, id uuid.UUID) {
		t.Helper()
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, kind, id, storage.Settlement{PixID: "ret-" + id.String(), At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}

	// 100.00 paid (98.50 net), 90.00 withdrawn: the infraction blocks 8.00.
	c := payCharge(t, db, in, 10000, time.Now())
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 9000, 50, "w1")); err != nil {
		t.Fatal(err)
	}
	inf, _ := openInfraction(t, db, c.ID, "inf-short", 10000)
	_, ret, _ := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if ret == nil || ret.Amount != 10000 {
		t.Fatalf("MED return %+v, want one of 100.00: what the provider returns, 8.00 of it blocked", ret)
	}
	if w := wallet(t, db, in.ID); w.Debt != 9200 {
		t.Fatalf("debt %s, want 92.00: what was not blocked", w.Debt)
	}
	if got := chargeByID(t, db, c.ID); got.RefundedAmount != 10000 {
		t.Fatalf("charge refunded %s after the agreed close, want 100.00 (the provider returns it all)", got.RefundedAmount)
	}
	if _, err := db.CreditWallet(ctx, in.ID, 5000, "float"); err != nil {
		t.Fatal(err)
	}
	if err := refund(c, 4000); err == nil {
		t.Fatal("a refund of a charge whose payer the MED return repaid was taken")
	}
	complete(storage.KindMedReturn, ret.ID)
	if got := chargeByID(t, db, c.ID); got.Status != storage.ChargeRefunded {
		t.Fatalf("charge %s after the MED return, want REFUNDED", got.Status)
	}
	mustAuditClean(t, db)

	// Nothing blocked at all: a MED return of all of it, owed, and the
	// charge REFUNDED once it completes.
	// (The 9.85 net of the charge pays the 92.00 debt first: only the
	// 50.00 credited is withdrawn.)
	c2 := payCharge(t, db, in, 1000, time.Now())
	if w := wallet(t, db, in.ID); w.Debt != 9200-985 || w.Available != 5000 {
		t.Fatalf("wallet %+v after a cash-in of 9.85 net while owing 92.00", w)
	}
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 5000-50, 50, "w2")); err != nil {
		t.Fatal(err)
	}
	inf2, _ := openInfraction(t, db, c2.ID, "inf-none", 1000)
	if inf2.Blocked != 0 {
		t.Fatalf("blocked %s, want nothing", inf2.Blocked)
	}
	_, ret2, _ := closeInfraction(t, db, inf2.ID, storage.InfractionAgreed)
	if ret2 == nil || ret2.Amount != 1000 {
		t.Fatalf("MED return %+v of an infraction that blocked nothing, want one of 10.00", ret2)
	}
	complete(storage.KindMedReturn, ret2.ID)
	if got := chargeByID(t, db, c2.ID); got.RefundedAmount != 1000 || got.Status != storage.ChargeRefunded {
		t.Fatalf("charge %+v after the MED return of an infraction that blocked nothing, want REFUNDED", got)
	}

	// A failed MED return gives the charge back all it counted, and the
	// debt its shortfall booked is void.
	in3 := newIntegrator(t, db)
	c3 := payCharge(t, db, in3, 10000, time.Now())
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in3.ID, 9000, 50, "w3")); err != nil {
		t.Fatal(err)
	}
	inf3, _ := openInfraction(t, db, c3.ID, "inf-fail", 10000)
	_, ret3, _ := closeInfraction(t, db, inf3.ID, storage.InfractionAgreed)
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.FailTransfer(ctx, storage.KindMedReturn, ret3.ID, storage.Failure{Reason: "returned nothing"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := chargeByID(t, db, c3.ID); got.RefundedAmount != 0 || got.Status != storage.ChargePaid {
		t.Fatalf("charge %+v after its MED return failed, want PAID with nothing refunded", got)
	}
	wantWallet(t, db, in3.ID, storage.Wallet{Available: 800, Reserved: 9050})
	mustAuditClean(t, db)
}
