package storage_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Two sends of one withdrawal may run at once (a redriven send task beside
// the original's retry). A refused first send proves nothing once another
// send has begun at the same provider: that one may have reached it, so
// the withdrawal does not move on the first's proof.
func TestWithdrawalDoesNotMovePastAnotherSend(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	w := newSentWithdrawal(t, db)
	_, one, err := db.ClaimWithdrawalSend(ctx, w.ID)
	if err != nil || one != 1 {
		t.Fatalf("first send = %v, %v", one, err)
	}
	if _, _, err := db.ClaimWithdrawalSend(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	for range 2 { // both sends ended: the second may have reached it all the same
		if err := db.EndWithdrawalSend(ctx, w.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", one); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move on the first send's proof while a second send began = %v, want ErrStateChanged", err)
	}
	mustAuditClean(t, db)
}

// A send task does not send a withdrawal to a provider it has left: the
// send begins where the withdrawal is when it is claimed.
func TestWithdrawalSendRefusedAtAProviderItLeft(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	w := newSentWithdrawal(t, db)
	_, send, err := db.ClaimWithdrawalSend(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.EndWithdrawalSend(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", send); err != nil {
		t.Fatal(err)
	}
	// A task that last saw it at the default provider claims it at b.
	if got, send, err := db.ClaimWithdrawalSend(ctx, w.ID); err != nil || got.Provider != "b" || send != 1 {
		t.Fatalf("a send after the move = %s, %d, %v; want the first send at b, not at the provider it left", got.Provider, send, err)
	}
	mustAuditClean(t, db)
}

func newSentWithdrawal(t *testing.T, db *storage.DB) storage.Transfer {
	t.Helper()
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-1"))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// A later send's proof (a refused connection, then a read that finds
// nothing) does not move a withdrawal while an earlier send is still in
// flight at the same provider: that one may yet reach it.
func TestWithdrawalDoesNotMoveWhileAnEarlierSendIsInFlight(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	w := newSentWithdrawal(t, db)
	if _, _, err := db.ClaimWithdrawalSend(ctx, w.ID); err != nil { // in flight
		t.Fatal(err)
	}
	_, later, err := db.ClaimWithdrawalSend(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.EndWithdrawalSend(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", later); !errors.Is(err, storage.ErrStateChanged) {
		t.Fatalf("move while an earlier send is in flight = %v, want ErrStateChanged", err)
	}
	if err := db.EndWithdrawalSend(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", later); err != nil {
		t.Fatalf("move once every send ended = %v", err)
	}
	mustAuditClean(t, db)
}
