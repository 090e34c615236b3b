package worker

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// payHeld puts the harness's integrator under a one-hour hold and pays a
// charge at paidAt, as a confirmed notification does.
func (h *harness) payHeld(amount money.Money, paidAt time.Time) storage.Charge {
	h.t.Helper()
	ctx := context.Background()
	if _, _, err := h.db.SetCashInHold(ctx, h.integrator.ID, time.Hour); err != nil {
		h.t.Fatal(err)
	}
	c, pixID := h.issueCharge(amount)
	err := h.db.InTx(ctx, func(tx *storage.Tx) (err error) {
		c, _, err = tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: pixID, At: paidAt})
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

func (h *harness) releasePostings() (n int) {
	h.t.Helper()
	if err := h.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM ledger_transactions WHERE kind = 'charge.release'`).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestHeldChargesAreReleasedOnceByRacingWorkers: two workers tick the
// reconciler; every charge past its hold is released by one posting, the
// one still in its hold is not.
func TestHeldChargesAreReleasedOnceByRacingWorkers(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	var net money.Money
	for range 10 {
		net += h.payHeld(2000, time.Now().Add(-2*time.Hour)).Net()
	}
	notDue := h.payHeld(3000, time.Now())
	h.start()
	h.start()
	h.eventually("held nets released", 10*time.Second, func() bool {
		w, _ := h.db.Wallet(context.Background(), h.integrator.ID)
		return w.Pending == notDue.Net()
	})
	// Two more steps at once, past the workers' own ticks: nothing moves again.
	done := make(chan error, 2)
	for range 2 {
		go func() { done <- h.newWorker().releaseHeld(context.Background(), 0) }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if w, _ := h.db.Wallet(context.Background(), h.integrator.ID); w.Available != money.FromReais(100, 0)+net {
		t.Fatalf("available = %v, want 100.00 + %v", w.Available, net)
	}
	if n := h.releasePostings(); n != 10 {
		t.Fatalf("%d release postings, want 10", n)
	}
	h.auditClean()
}

// TestFailingReleasesDoNotHoldUpOthers: three charges whose release fails
// (their release reference is already taken) are the most overdue, and a
// tick looks at two charges. Each failure is set aside, and the good charges
// behind them are still released.
func TestFailingReleasesDoNotHoldUpOthers(t *testing.T) {
	h := newHarness(t)
	h.reconcile = ReconcileConfig{Batch: 2}
	ctx := context.Background()
	var broken []uuid.UUID
	for i := range 3 {
		c := h.payHeld(2000, time.Now().Add(-3*time.Hour+time.Duration(i)*time.Minute))
		broken = append(broken, c.ID)
		err := h.db.InTx(ctx, func(tx *storage.Tx) error {
			_, err := tx.Post(ctx, ledger.Transaction{Reference: "charge:" + c.ID.String() + ":release", Kind: "tamper",
				Entries: []ledger.Entry{{Account: ledger.Platform(ledger.Adjustments), Amount: -1}, {Account: ledger.Float("default"), Amount: 1}}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var good money.Money
	for range 3 {
		good += h.payHeld(2000, time.Now().Add(-2*time.Hour)).Net()
	}
	w := h.newWorker()
	for range 4 {
		_ = w.releaseHeld(ctx, 0) // logs the failures; the step goes on
	}
	if n := h.releasePostings(); n != 3 {
		t.Fatalf("%d release postings, want the 3 good charges'", n)
	}
	if wl, _ := h.db.Wallet(ctx, h.integrator.ID); wl.Available != money.FromReais(100, 0)+good || wl.Pending != 3*(2000-30) {
		t.Fatalf("wallet = %+v, want the good nets available and the broken ones pending", wl)
	}
	for _, id := range broken {
		var retry *time.Time
		if err := h.db.Pool().QueryRow(ctx, `SELECT release_retry_at FROM charges WHERE id = $1`, id).Scan(&retry); err != nil || retry == nil {
			t.Fatalf("broken charge %s not set aside: %v %v", id, retry, err)
		}
	}
}
