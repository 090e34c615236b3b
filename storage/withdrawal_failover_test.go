package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"

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
		if got, send, err := db.ClaimWithdrawalSend(ctx, w.ID); err != nil || send != want || got.Provider != storage.DefaultProvider {
			t.Fatalf("claim = %s, %v, %v; want send %d at the default provider", got.Provider, send, err, want)
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
	if got, send, err := db.ClaimWithdrawalSend(ctx, w.ID); err != nil || send != 1 || got.Provider != "b" {
		t.Fatalf("first send at b = %s, %v, %v; want send 1 at b", got.Provider, send, err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "pix-1", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, "b", "c", 1); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move of a withdrawal b accepted = %v, want ErrStateChanged", err)
	}
	mustAuditClean(t, db)
}

// A send task claims its withdrawal in one statement: the withdrawal as it
// is, and its send begun at the provider it records; an accepted send's
// record ends the send, so that only an unsent one's end (a refusal)
// takes a statement of its own. A sent or final withdrawal is not claimed.
func TestClaimWithdrawalSendReadsAndStarts(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-claim"))
	if err != nil {
		t.Fatal(err)
	}
	got, send, err := db.ClaimWithdrawalSend(ctx, w.ID)
	if err != nil || send != 1 || got.ID != w.ID || got.Amount != 300 || got.Provider != storage.DefaultProvider {
		t.Fatalf("claim = %+v, %d, %v; want the withdrawal, send 1", got, send, err)
	}
	// The send is in flight: the withdrawal does not move.
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", 1); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move while its send is in flight = %v, want ErrStateChanged", err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "pix-claim", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ClaimWithdrawalSend(ctx, w.ID); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("claim of a sent withdrawal = %v, want ErrStateChanged", err)
	}
	// A second claim and its refusal, then an accepted one recorded twice:
	// every begun send ended, none below zero.
	w2, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 100, 50, "order-claim-2"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.ClaimWithdrawalSend(ctx, w2.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.EndWithdrawalSend(ctx, w2.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w2.ID, storage.DefaultProvider, "b", 1); err != nil {
		t.Fatalf("move after the refused send ended: %v", err)
	}
	if _, send, err := db.ClaimWithdrawalSend(ctx, w2.ID); err != nil || send != 1 {
		t.Fatalf("claim at b = %d, %v; want send 1", send, err)
	}
	for range 2 {
		if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w2.ID, "pix-claim-2", ""); err != nil {
			t.Fatal(err)
		}
	}
	var sending int
	if err := db.Pool().QueryRow(ctx, `SELECT sending FROM withdrawals WHERE id = $1`, w2.ID).Scan(&sending); err != nil || sending != 0 {
		t.Fatalf("sending = %d, %v; want 0", sending, err)
	}
	if _, _, err := db.ClaimWithdrawalSend(ctx, uuid.New()); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("claim of no withdrawal = %v, want ErrStateChanged", err)
	}
	mustAuditClean(t, db)
}
