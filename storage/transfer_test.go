package storage_test

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// refundFixture pays a R$ 100.00 charge (net 98.50), credits 5.00, and
// reserves a refund of amount (fee 0.50) against it, as refund creation will.
func refundFixture(t *testing.T, db *storage.DB, amount money.Money) (storage.Integrator, storage.Charge, uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	in := newIntegrator(t, db)
	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: "c1", Amount: 10000, Fee: 150,
		Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:]})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: "pix1", At: time.Now()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreditWallet(ctx, in.ID, 500, "cover the refund fee"); err != nil {
		t.Fatal(err)
	}
	refundID, _ := uuid.NewV7()
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		if _, err := db.Pool().Exec(ctx, `INSERT INTO refunds (id, integrator_id, charge_id, request_hash, amount, fee, status)
			VALUES ($1, $2, $3, '\x00', $4, 50, 'PROCESSING')`, refundID, in.ID, c.ID, amount); err != nil {
			return err
		}
		if _, err := db.Pool().Exec(ctx, `UPDATE charges SET refunded_amount = refunded_amount + $2 WHERE id = $1`, c.ID, amount); err != nil {
			return err
		}
		_, err := tx.Post(ctx, ledger.Transaction{Reference: "refund:" + refundID.String() + ":reserve", Kind: "refund.reserve",
			Entries: []ledger.Entry{{Account: ledger.Of(in.ID, ledger.Available), Amount: -(amount + 50)}, {Account: ledger.Of(in.ID, ledger.Reserved), Amount: amount + 50}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	mustAuditClean(t, db)
	return in, c, refundID
}

func TestCompleteRefundOfTheWholeChargeRefundsIt(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c, refundID := refundFixture(t, db, 10000)
	for range 2 { // the second time changes nothing
		err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, storage.KindRefund, refundID, storage.Settlement{PixID: "r1", EndToEndID: "D1", At: time.Now()})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := db.ChargeByID(ctx, c.ID); got.Status != storage.ChargeRefunded {
		t.Fatalf("charge status = %s, want REFUNDED", got.Status)
	}
	if w, _ := db.Wallet(ctx, in.ID); w.Available != 9850+500-10050 || w.Reserved != 0 {
		t.Fatalf("wallet = %+v, want 3.00 available, nothing reserved", w)
	}
	mustAuditClean(t, db)
}

func TestFailRefundReturnsReservationAndRefundable(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c, refundID := refundFixture(t, db, 4000)
	for range 2 {
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.FailTransfer(ctx, storage.KindRefund, refundID, storage.Failure{Reason: "bank said no"})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := db.ChargeByID(ctx, c.ID)
	if got.Status != storage.ChargePaid || got.RefundedAmount != 0 {
		t.Fatalf("charge = %s refunded %v, want PAID with nothing refunded", got.Status, got.RefundedAmount)
	}
	if w, _ := db.Wallet(ctx, in.ID); w.Available != 9850+500 || w.Reserved != 0 {
		t.Fatalf("wallet = %+v, want the net of the charge available again", w)
	}
	mustAuditClean(t, db)
}
