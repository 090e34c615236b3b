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
