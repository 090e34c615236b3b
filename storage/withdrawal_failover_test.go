package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The sends of a withdrawal at the provider it records are numbered; a
// move to the next provider makes the next send there a first one, and
// only an unsent withdrawal moves, from the provider it records, on the
// latest send's proof.
func TestWithdrawalSendStartAndMove(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil {
		t.Fatal(err)
	}
	for want := 1; want <= 3; want++ {
		if send, err := db.StartWithdrawalSend(ctx, w.ID, storage.DefaultProvider); err != nil || send != want {
			t.Fatalf("start = %v, %v; want send %d", send, err, want)
		}
		if err := db.EndWithdrawalSend(ctx, w.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.MoveWithdrawal(ctx, w.ID, "elsewhere", "b", 3); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move from a provider it does not record = %v, want ErrStateChanged", err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", 3); err != nil {
		t.Fatal(err)
	}
	got, err := db.TransferByID(ctx, storage.KindWithdrawal, w.ID)
	if err != nil || got.Provider != "b" {
		t.Fatalf("after the move: provider %q, %v; want b", got.Provider, err)
	}
	if send, err := db.StartWithdrawalSend(ctx, w.ID, "b"); err != nil || send != 1 {
		t.Fatalf("first send at b = %v, %v; want 1", send, err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "pix-1", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, "b", "c", 1); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move of a withdrawal b accepted = %v, want ErrStateChanged", err)
	}
	mustAuditClean(t, db)
}
