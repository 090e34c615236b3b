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
			tt.want == "withdrawal" && (got.Transfer == nil || got.Transfer.Kind != storage.KindWithdrawal || got.Transfer.ID != w.ID),
			tt.want == "refund" && (got.Transfer == nil || got.Transfer.Kind != storage.KindRefund || got.Transfer.ID != f.ID ||
				got.Transfer.ChargeID != c.ID || got.Transfer.ChargePixID != *c.PixID):
			t.Errorf("%s: %+v, want the %s", tt.pixID, got, tt.want)
		}
		// The pix_id the record is known by, its transactionId on /v2.
		known := ""
		switch {
		case got.Charge != nil:
			known = *got.Charge.PixID
		case got.Transfer != nil:
			known = got.Transfer.PublicPixID()
		}
		if known != tt.pixID && tt.pixID != w.ID.String() {
			t.Errorf("%s is known as pix_id %q", tt.pixID, known)
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
