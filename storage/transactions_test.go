package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestTransactionByPixID(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, 1000)
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 0, "saque-1"))
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := db.CreateRefund(ctx, newRefund(in, c, 500, ""))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		pixID string
		want  string
	}{
		{*c.PixID, "charge"},
		{w.PublicPixID(), "withdrawal"},
		{w.ID.String(), "withdrawal"},
		{f.PublicPixID(), "refund"},
	} {
		got, err := db.TransactionByPixID(ctx, in.ID, tt.pixID)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tt.pixID, err)
		case tt.want == "charge" && (got.Charge == nil || got.Charge.ID != c.ID),
			tt.want == "withdrawal" && (got.Withdrawal == nil || got.Withdrawal.ID != w.ID),
			tt.want == "refund" && (got.Refund == nil || got.Refund.ID != f.ID || got.RefundOf.ID != c.ID):
			t.Errorf("%s: %+v, want the %s", tt.pixID, got, tt.want)
		}
		if tx := got.ContractTransaction(); tx.TransactionID != tt.pixID && tt.pixID != w.ID.String() {
			t.Errorf("%s renders as transactionId %q", tt.pixID, tx.TransactionID)
		}
	}
	other := newIntegrator(t, db)
	for _, pixID := range []string{*c.PixID, w.PublicPixID(), f.PublicPixID(), "saque-1", "", "nope"} {
		if _, err := db.TransactionByPixID(ctx, other.ID, pixID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("another integrator's %q: %v, want ErrNotFound", pixID, err)
		}
	}
	if _, err := db.TransactionByPixID(ctx, in.ID, "saque-1"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("an external_id is not a pix_id: %v", err)
	}
}
