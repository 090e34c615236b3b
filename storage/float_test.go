package storage_test

import (
	"context"
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Each provider's float follows the records it holds: a charge paid at a
// grows a's, its refund (sent by a, whatever the routes say) and a
// withdrawal sent by b shrink theirs; the audit derives each float from the
// records and is clean, and catches a record moved to another provider
// behind the ledger's back.
func TestFloatPerProvider(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "a")
	addProvider(t, db, "b")
	if _, err := db.CreditWallet(ctx, in.ID, 10000, "seed"); err != nil {
		t.Fatal(err)
	}

	id, _ := uuid.NewV7()
	h := sha256.Sum256(id[:])
	c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: "c1", Amount: 10000, Fee: 150,
		Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:], Provider: "a"})
	if err != nil {
		t.Fatal(err)
	}
	nw := newWithdrawal(in.ID, 2500, 50, "w1")
	nw.Provider = "b"
	w, _, err := db.CreateWithdrawal(ctx, nw)
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		if c, _, err = tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now()}); err != nil {
			return err
		}
		_, _, err := tx.CompleteTransfer(ctx, storage.KindWithdrawal, w.ID, storage.Settlement{PixID: "pw", EndToEndID: "E1", At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := db.CreateRefund(ctx, newRefund(in, c, 1000, "r1"))
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.CompleteTransfer(ctx, storage.KindRefund, f.ID, storage.Settlement{PixID: "pr", EndToEndID: "D1", At: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	floats, err := db.FloatBalances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if floats["a"] != 9000 || floats["b"] != -2500 || floats["default"] != 0 {
		t.Fatalf("floats = %v; want a 90.00 (charge 100.00 less refund 10.00), b -25.00 (a withdrawal), default 0", floats)
	}
	mustAuditClean(t, db)

	if _, err := db.Pool().Exec(ctx, `UPDATE withdrawals SET provider = 'a' WHERE id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	v, err := db.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, x := range v {
		if x.Check == "float_mismatch" {
			found = append(found, x.Detail)
		}
	}
	if len(found) != 2 || !strings.Contains(strings.Join(found, "\n"), "provider a float") {
		t.Fatalf("audit after moving a withdrawal to another provider = %v; want a float_mismatch for a and for b", v)
	}
}

// A MED return and the refund of a same-holder payment go back through
// the provider that took the charge, and move its float, not the default
// provider's.
func TestMedReturnAndSameHolderRefundUseTheChargesProvider(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "b")
	if _, err := db.SetSameHolder(ctx, in.ID, true); err != nil {
		t.Fatal(err)
	}
	chargeAtB := func() storage.Charge {
		id, _ := uuid.NewV7()
		h := sha256.Sum256(id[:])
		c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: id.String(), Amount: 10000,
			Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:], Provider: "b"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	complete := func(kind storage.TransferKind, id uuid.UUID) {
		err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, kind, id, storage.Settlement{PixID: "out-" + id.String(), At: time.Now()})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	paid := markPaid(t, db, chargeAtB().ID, time.Now())
	inf, _ := openInfraction(t, db, paid.ID, "inf-b", 10000)
	_, ret, changed := closeInfraction(t, db, inf.ID, storage.InfractionAgreed)
	if !changed || ret == nil || ret.Provider != "b" {
		t.Fatalf("MED return %+v; want one at b", ret)
	}
	complete(storage.KindMedReturn, ret.ID)

	returned := chargeAtB()
	refundID, _ := uuid.NewV7()
	s := storage.Settlement{PixID: "pix-" + returned.ID.String(), At: time.Now(), PayerDocument: "11144477735",
		Return: &storage.ChargeReturn{RefundID: refundID, Reason: "another holder"}}
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MarkChargePaid(ctx, returned.ID, s)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if ref, err := db.TransferByID(ctx, storage.KindRefund, refundID); err != nil || ref.Provider != "b" {
		t.Fatalf("same-holder refund %+v, %v; want it at b", ref, err)
	}
	floats, err := db.FloatBalances(ctx)
	if err != nil || floats["b"] != 10000 || floats["default"] != 0 {
		t.Fatalf("floats %v, %v; want b 100.00 (two charges in, the MED return out, the refund in flight), default 0", floats, err)
	}
	complete(storage.KindRefund, refundID)
	if floats, _ = db.FloatBalances(ctx); floats["b"] != 0 {
		t.Fatalf("b's float after the refund = %v, want 0", floats["b"])
	}
	mustAuditClean(t, db)
}
