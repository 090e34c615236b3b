package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// refundCharge refunds amount (fee 0.50) of a paid charge through
// CreateRefund, as the API does.
func refundCharge(t *testing.T, db *storage.DB, c storage.Charge, amount money.Money) (storage.Transfer, error) {
	t.Helper()
	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	f, _, err := db.CreateRefund(context.Background(), storage.NewRefund{ID: id, IntegratorID: c.IntegratorID, ChargePixID: *c.PixID,
		Amount: amount, Fee: 50, RequestHash: h[:], Check: func(storage.Charge) error { return nil }})
	return f, err
}

// endHold makes a held charge's hold end now, as the clock would.
func endHold(t *testing.T, db *storage.DB, c storage.Charge) {
	t.Helper()
	if _, err := db.Pool().Exec(context.Background(), `UPDATE charges SET available_at = now() - interval '1 second' WHERE id = $1`, c.ID); err != nil {
		t.Fatal(err)
	}
}

func failRefund(t *testing.T, db *storage.DB, f storage.Transfer) {
	t.Helper()
	ctx := context.Background()
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.FailTransfer(ctx, storage.KindRefund, f.ID, storage.Failure{Reason: "bank said no"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func wantWallet(t *testing.T, db *storage.DB, in int64, want storage.Wallet) {
	t.Helper()
	if got := wallet(t, db, in); got != want {
		t.Fatalf("wallet = %+v, want %+v", got, want)
	}
}

// TestRefundWhilePendingTakesFromPendingFirst: R$ 100.00 paid under a hold
// (98.50 pending); a refund of 40.00 + 0.50 fee comes out of pending, and
// only the rest of the net is released when the hold ends.
func TestRefundWhilePendingTakesFromPendingFirst(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	if _, err := db.CreditWallet(ctx, in.ID, 500, "float"); err != nil {
		t.Fatal(err)
	}
	c := payCharge(t, db, in, 10000, time.Now())
	f, err := refundCharge(t, db, c, 4000)
	if err != nil {
		t.Fatal(err)
	}
	if f.FromPending != 4050 {
		t.Fatalf("from pending = %v, want 40.50", f.FromPending)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 500, Pending: 5800, Reserved: 4050})
	if got := chargeByID(t, db, c.ID); got.HeldAmount != 5800 {
		t.Fatalf("charge holds %v, want 58.00", got.HeldAmount)
	}
	mustAuditClean(t, db)
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.CompleteTransfer(ctx, storage.KindRefund, f.ID, storage.Settlement{PixID: "r1", At: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	endHold(t, db, c)
	if got := releaseAll(t, db); got != 5800 {
		t.Fatalf("released %v, want 58.00", got)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 6300})
	mustAuditClean(t, db)
}

// TestFullRefundWhilePendingTakesTheRestFromAvailable: the whole charge
// plus the fee is more than its held net; the difference comes from
// available, and nothing is left to release.
func TestFullRefundWhilePendingTakesTheRestFromAvailable(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	other := payCharge(t, db, in, 2000, time.Now()) // its held money is not this refund's to take
	c := payCharge(t, db, in, 10000, time.Now())
	// Without available money for the part the held net does not cover, the
	// refund is refused and nothing changes.
	before := wallet(t, db, in.ID)
	if _, err := refundCharge(t, db, c, 10000); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("refund with 2.00 missing: err = %v, want insufficient funds", err)
	}
	wantWallet(t, db, in.ID, before)
	if got := chargeByID(t, db, c.ID); got.HeldAmount != 9850 || got.RefundedAmount != 0 {
		t.Fatalf("refused refund changed the charge: held %v refunded %v", got.HeldAmount, got.RefundedAmount)
	}
	mustAuditClean(t, db)

	if _, err := db.CreditWallet(ctx, in.ID, 500, "float"); err != nil {
		t.Fatal(err)
	}
	f, err := refundCharge(t, db, c, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if f.FromPending != 9850 {
		t.Fatalf("from pending = %v, want the whole held net", f.FromPending)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 300, Pending: other.HeldAmount, Reserved: 10050})
	endHold(t, db, c)
	if got := releaseAll(t, db); got != 0 {
		t.Fatalf("released %v of a charge refunded whole", got)
	}
	mustAuditClean(t, db)
}

// TestFailedRefundGivesBackToPendingWhileHeld: a refund that fails before
// the hold ends puts its part back under the hold, so failing a refund never
// releases money early.
func TestFailedRefundGivesBackToPendingWhileHeld(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, time.Hour)
	c := payCharge(t, db, in, 10000, time.Now())
	f, err := refundCharge(t, db, c, 4000)
	if err != nil {
		t.Fatal(err)
	}
	failRefund(t, db, f)
	wantWallet(t, db, in.ID, storage.Wallet{Pending: 9850})
	if got := chargeByID(t, db, c.ID); got.HeldAmount != 9850 || got.RefundedAmount != 0 {
		t.Fatalf("charge held %v refunded %v after the refund failed", got.HeldAmount, got.RefundedAmount)
	}
	mustAuditClean(t, db)
	endHold(t, db, c)
	if got := releaseAll(t, db); got != 9850 {
		t.Fatalf("released %v, want 98.50", got)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Available: 9850})
	mustAuditClean(t, db)
}

// TestFailedRefundAfterReleaseGoesToAvailable: once the charge is released,
// a failed refund's money is available like the rest of the net.
func TestFailedRefundAfterReleaseGoesToAvailable(t *testing.T) {
	db := storagetest.NewDB(t)
	in := heldIntegrator(t, db, time.Hour)
	c := payCharge(t, db, in, 10000, time.Now())
	f, err := refundCharge(t, db, c, 4000)
	if err != nil {
		t.Fatal(err)
	}
	endHold(t, db, c)
	if got := releaseAll(t, db); got != 5800 {
		t.Fatalf("released %v, want 58.00", got)
	}
	failRefund(t, db, f)
	wantWallet(t, db, in.ID, storage.Wallet{Available: 9850})
	if got := chargeByID(t, db, c.ID); got.HeldAmount != 0 {
		t.Fatalf("released charge holds %v again", got.HeldAmount)
	}
	mustAuditClean(t, db)
}

// TestReleaseRacingRefund: 30 charges past their hold, each released and
// refunded at the same moment. Whichever goes first, the held money moves
// once: the refund takes it from pending or the release makes it
// available, never both, and the ledger agrees with the charges.
func TestReleaseRacingRefund(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	const n = 30
	charges := make([]storage.Charge, n)
	for i := range charges {
		charges[i] = payCharge(t, db, in, 10000, time.Now().Add(-2*time.Hour))
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, c := range charges {
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			if _, err := db.ReleaseCharge(ctx, c.ID); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			<-start
			if _, err := refundCharge(t, db, c, 4000); err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	releaseAll(t, db) // what a release skipped while the refund held the charge
	wantWallet(t, db, in.ID, storage.Wallet{Available: n * (9850 - 4050), Reserved: n * 4050})
	mustAuditClean(t, db)
}
