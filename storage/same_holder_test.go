package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A same-holder integrator's charge paid from another document is paid
// and returned in one transaction: the integrator's available balance
// never holds the money, no fee is taken, and the charge ends REFUNDED
// with its reason once the refund completes. Recording it again writes
// nothing.
func TestChargePaidByAnotherHolderIsReturnedWhole(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, time.Hour)
	if _, err := db.SetSameHolder(ctx, in.ID, true); err != nil {
		t.Fatal(err)
	}
	c := newCharge(t, db, in, 10000)
	refundID, _ := uuid.NewV7()
	const reason = "paid by another holder: document 111.444.777-35 is not the payer's"
	s := storage.Settlement{PixID: "pix-1", At: time.Now(), PayerAccount: storage.PayerAccount{Name: "Outro", TaxID: "11144477735"}}
	s.PayerDocument = "11144477735"
	s.Return = &storage.ChargeReturn{RefundID: refundID, Reason: reason,
		Outbox: []storage.OutboxMessage{{Type: "refund:send", ID: "refund:send:" + refundID.String(), Payload: []byte(`{}`)}}}
	for i := range 2 {
		var (
			got     storage.Charge
			changed bool
		)
		err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
			got, changed, err = tx.MarkChargePaid(ctx, c.ID, s)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if changed != (i == 0) {
			t.Fatalf("record %d: changed %v", i, changed)
		}
		if got.Status != storage.ChargePaid || got.RefundedAmount != 10000 || got.ReturnedReason == nil || *got.ReturnedReason != reason ||
			got.HeldAmount != 0 {
			t.Fatalf("charge %+v", got)
		}
	}
	ref, err := db.TransferByID(ctx, storage.KindRefund, refundID)
	if err != nil || ref.Amount != 10000 || ref.Fee != 0 || ref.Status != storage.TransferProcessing {
		t.Fatalf("refund %+v, %v", ref, err)
	}
	wantWallet(t, db, in.ID, storage.Wallet{Reserved: 10000})
	mustAuditClean(t, db)
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.CompleteTransfer(ctx, storage.KindRefund, refundID, storage.Settlement{PixID: "ref-1", At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wantWallet(t, db, in.ID, storage.Wallet{})
	if got := chargeByID(t, db, c.ID); got.Status != storage.ChargeRefunded {
		t.Fatalf("charge %s after the return, want REFUNDED", got.Status)
	}
	mustAuditClean(t, db)
}

// The rule keeps what it must: a payment from the payer's own document, a
// payment to an integrator without the rule, and a charge paid without a
// way to return it are credited as usual.
func TestSameHolderKeepsThePayersOwnPayment(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	holder := heldIntegrator(t, db, 0)
	if _, err := db.SetSameHolder(ctx, holder.ID, true); err != nil {
		t.Fatal(err)
	}
	other := heldIntegrator(t, db, 0)
	tests := []struct {
		name string
		in   storage.Integrator
		doc  string
		ret  bool
	}{
		{"the payer's own document", holder, "52998224725", true},
		{"another document, integrator without the rule", other, "11144477735", true},
		{"another document, no way to return it", holder, "11144477735", false},
	}
	for _, tt := range tests {
		c := newCharge(t, db, tt.in, 1000)
		s := storage.Settlement{PixID: "pix-" + c.ID.String(), At: time.Now(), PayerDocument: tt.doc}
		if tt.ret {
			s.Return = &storage.ChargeReturn{RefundID: uuid.New(), Reason: "x"}
		}
		var got storage.Charge
		err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
			got, _, err = tx.MarkChargePaid(ctx, c.ID, s)
			return err
		})
		if err != nil || got.ReturnedReason != nil || got.RefundedAmount != 0 {
			t.Errorf("%s: %+v, %v", tt.name, got, err)
		}
	}
	mustAuditClean(t, db)
}
