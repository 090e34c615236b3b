package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// onePoolDeadline bounds each call of the pool-of-one tests: a call that
// needs a second connection while holding the only one never gets it, and
// fails instead of hanging the test.
const onePoolDeadline = 20 * time.Second

// A refund's create holds one connection from the charge's lock to its
// commit. A replay, a conflict and a refusal of a refund with an
// external_id are answered on that same connection, so they are answered
// on a pool of one connection, alone and concurrently.
func TestRefundCreateNeedsOneConnection(t *testing.T) {
	db := storagetest.NewDBWith(t, storage.Config{MaxConns: 1})
	in, c := paidCharge(t, db, 0)
	call := func(nr storage.NewRefund) (storage.Transfer, bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), onePoolDeadline)
		defer cancel()
		return db.CreateRefund(ctx, nr)
	}
	first := newRefund(in, c, 1000, "r1")
	created, ok, err := call(first)
	if err != nil || !ok {
		t.Fatalf("create: %v, created %v", err, ok)
	}
	replay := first
	replay.ID = newRefund(in, c, 1000, "r1").ID
	if f, ok, err := call(replay); err != nil || ok || f.ID != created.ID {
		t.Fatalf("replay: %v, created %v, id %v; want the first refund %v", err, ok, f.ID, created.ID)
	}
	if _, _, err := call(newRefund(in, c, 2000, "r1")); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("conflict: %v, want ErrIdempotencyConflict", err)
	}
	short := newRefund(in, c, 8850, "r2") // 88.50 + 0.10 > the 88.50 left
	if _, _, err := call(short); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("refused for funds: %v, want ErrInsufficientFunds", err)
	}
	replays := make([]func() error, 8)
	for i := range replays {
		replays[i] = func() error {
			nr := newRefund(in, c, 1000, "r1")
			f, ok, err := call(nr)
			if err != nil || ok || f.ID != created.ID {
				return errors.Join(err, errors.New("a concurrent replay was not answered with the first refund"))
			}
			return nil
		}
	}
	together(t, replays...)
	mustAuditClean(t, db)
}

// Waiting for a pooled connection has a deadline even when the caller's
// context has none: with the only connection held, a call fails with an
// error Unavailable reports (the API's 503) instead of waiting forever.
func TestAcquireGivesUpAtItsDeadline(t *testing.T) {
	db := storagetest.NewDBWith(t, storage.Config{MaxConns: 1, AcquireTimeout: 50 * time.Millisecond})
	held, err := db.Pool().Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	done := make(chan error, 1)
	go func() {
		_, err := db.Wallet(context.Background(), 1) // no deadline of its own
		done <- err
	}()
	select {
	case err := <-done:
		if !storage.Unavailable(err) {
			t.Fatalf("Wallet with every connection held: %v, want an error Unavailable reports", err)
		}
	case <-time.After(onePoolDeadline):
		t.Fatal("Wallet still waits for a connection")
	}
}

// Close does not wait for ever for a connection that is never released: a
// stopping process ends.
func TestCloseDoesNotWaitForAHeldConnection(t *testing.T) {
	db := storagetest.NewDBWith(t, storage.Config{CloseTimeout: 50 * time.Millisecond})
	held, err := db.Pool().Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	closed := make(chan struct{})
	go func() {
		db.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(onePoolDeadline):
		t.Fatal("Close still waits for the held connection")
	}
}

// The pool watch finds the pool starved only when every connection is
// held, none was handed out for the window, none comes free for its own
// wait, and Postgres still answers: never a pool that has room, one that
// handed a connection out lately, or a database that is down.
func TestPoolWatchTellsAStarvedPool(t *testing.T) {
	db := storagetest.NewDBWith(t, storage.Config{MaxConns: 1, AcquireTimeout: 50 * time.Millisecond})
	ctx := context.Background()
	const window = time.Minute
	later := time.Now().Add(2 * window)
	up := func(context.Context) bool { return true }
	down := func(context.Context) bool { return false }
	if !db.PostgresAnswers(ctx) {
		t.Fatal("the watch's own connection got no answer")
	}
	if db.CheckPool(ctx, later, window, up) {
		t.Fatal("a pool with a free connection counted as starved")
	}
	held, err := db.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if db.CheckPool(ctx, time.Now(), window, up) {
		t.Fatal("a pool that handed a connection out just now counted as starved")
	}
	if db.CheckPool(ctx, later, window, down) {
		t.Fatal("a database that does not answer counted as a starved pool")
	}
	if !db.CheckPool(ctx, later, window, up) {
		t.Fatal("every connection held and none handed out for the window: not found starved")
	}
	held.Release()
	if db.CheckPool(ctx, later.Add(window), window, up) {
		t.Fatal("a pool whose connection came back counted as starved")
	}
	if err := db.PoolStarved(); err != nil {
		t.Fatalf("PoolStarved with no watch running: %v", err)
	}
}
