package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A committed transaction that wrote outbox rows wakes the relays at once;
// one that rolled back does not.
func TestOutboxWritesWakeListenersAfterCommit(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	wake := db.ListenOutbox(ctx)
	select { // the listener pokes itself once when it starts listening
	case <-wake:
	case <-time.After(5 * time.Second):
		t.Fatal("listener never started")
	}

	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 5000, 0, "")); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("overdraft: %v", err)
	}
	select {
	case <-wake:
		t.Fatal("a rolled-back transaction woke the relays")
	case <-time.After(300 * time.Millisecond):
	}

	start := time.Now()
	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 100, 0, "")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
		t.Logf("woken %v after the commit returned", time.Since(start))
	case <-time.After(time.Second):
		t.Fatal("a committed outbox write did not wake the relays")
	}
}
