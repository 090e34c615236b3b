package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/sandbox/pgstore"
)

// Two sandboxes on one schema would each believe its own balance: the
// second is refused until the first lets go. Another schema is another
// sandbox.
func TestOneSandboxPerSchema(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	first, err := pgstore.Open(ctx, pgstore.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.Open(ctx, pgstore.Config{URL: url, LockWait: 50 * time.Millisecond}); !errors.Is(err, pgstore.ErrInUse) {
		t.Fatalf("second store on the same schema: %v, want ErrInUse", err)
	}
	other, err := pgstore.Open(ctx, pgstore.Config{URL: url, Schema: "sandbox_b"})
	if err != nil {
		t.Fatalf("a store on another schema: %v", err)
	}
	other.Close()
	first.Close()
	again, err := pgstore.Open(ctx, pgstore.Config{URL: url})
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	again.Close()
	if _, err := first.Load(ctx); !errors.Is(err, pgstore.ErrClosed) {
		t.Fatalf("load on a closed store: %v, want ErrClosed", err)
	}
}

// When the store does not take a change, the sandbox answers 503 and makes
// nothing: no charge, no payment, no balance moved, a charge not paid.
func TestAChangeTheStoreRefusesIsNotMade(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	r := start(t, url, sandbox.Config{})
	ch, err := r.client.CreateCharge(ctx, charge("order-1", 10))
	if err != nil {
		t.Fatal(err)
	}
	balance := r.sb.Balance()
	r.store.Close()

	_, err = r.client.CreateCharge(ctx, charge("order-2", 10))
	var pe *providerclient.Error
	if !errors.As(err, &pe) || pe.StatusCode != 503 || !errors.Is(err, providerclient.ErrUnavailable) {
		t.Fatalf("charge with the store gone: %v, want 503", err)
	}
	if _, err := r.client.CreatePayment(ctx, payment("wd-1", 100)); !errors.Is(err, providerclient.ErrUnavailable) {
		t.Fatalf("payment with the store gone: %v, want unavailable", err)
	}
	if _, err := r.sb.PayCharge(ch.TransactionID, sandbox.Payer{}); !errors.Is(err, sandbox.ErrStore) {
		t.Fatalf("pay with the store gone: %v, want ErrStore", err)
	}
	if st := status(r.sb, ch.TransactionID); st != contract.StatusPending {
		t.Fatalf("charge is %s after a refused payment", st)
	}
	if txs := r.sb.Transactions(""); len(txs) != 1 || txs[0].TransactionID != ch.TransactionID {
		t.Fatalf("transactions after refused changes: %+v", txs)
	}
	if got := r.sb.Balance(); got != balance {
		t.Fatalf("balance moved: %+v, was %+v", got, balance)
	}
}

// The store reconnects when Postgres drops its connection, and takes its
// lock again.
func TestStoreReconnects(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	r := start(t, url, sandbox.Config{})
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var killed int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory'
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&killed); err != nil || killed != 1 {
		t.Fatalf("terminated %d sessions holding the lock: %v", killed, err)
	}
	// The first call after the drop may meet the dead connection; the
	// client retries unavailable answers of calls with an external_id.
	var ch *family.Charge
	waitFor(t, "a charge after the reconnection", func() bool {
		ch, err = r.client.CreateCharge(ctx, charge("order-1", 10))
		return err == nil
	})
	r.stop()
	b := start(t, url, sandbox.Config{})
	if st := status(b.sb, ch.TransactionID); st != contract.StatusPending {
		t.Fatalf("charge made after the reconnection is %q on the next sandbox", st)
	}
}
