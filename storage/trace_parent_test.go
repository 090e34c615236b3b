package storage_test

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A withdrawal and a charge keep the traceparent they were written with,
// read back with them (and by the settlement's RETURNING); written
// without one (tracing off) the column is NULL and reads "".
func TestTraceParentKept(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, money.FromReais(100, 0), "seed"); err != nil {
		t.Fatal(err)
	}
	const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	for _, want := range []string{tp, ""} {
		nw := newWithdrawal(in.ID, money.FromReais(1, 0), 0, "")
		nw.TraceParent = want
		if _, _, err := db.CreateWithdrawal(ctx, nw); err != nil {
			t.Fatal(err)
		}
		w, err := db.TransferByID(ctx, storage.KindWithdrawal, nw.ID)
		if err != nil || w.TraceParent != want {
			t.Fatalf("withdrawal's trace parent %q (%v), want %q", w.TraceParent, err, want)
		}
		var done storage.Transfer
		err = db.InTx(ctx, func(tx *storage.Tx) (err error) {
			done, _, err = tx.CompleteTransfer(ctx, storage.KindWithdrawal, nw.ID, storage.Settlement{PixID: "pix-" + nw.ID.String()})
			return err
		})
		if err != nil || done.TraceParent != want {
			t.Fatalf("completed withdrawal's trace parent %q (%v), want %q", done.TraceParent, err, want)
		}

		id, _ := uuid.NewV7()
		h := sha256.Sum256(id[:])
		c, _, err := db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: in.ID, ExternalID: id.String(), Amount: 1000,
			Payer: storage.Payer{Name: "F", Document: "52998224725"}, RequestHash: h[:], TraceParent: want})
		if err != nil || c.TraceParent != want {
			t.Fatalf("charge's trace parent %q (%v), want %q", c.TraceParent, err, want)
		}
		var null bool
		if err := db.Pool().QueryRow(ctx, `SELECT trace_parent IS NULL FROM charges WHERE id = $1`, id).Scan(&null); err != nil || null != (want == "") {
			t.Fatalf("charge's trace_parent NULL %v (%v) for %q", null, err, want)
		}
	}
}
