package storage_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// handedOff records what EnqueueAfterCommit hands over.
type handedOff struct {
	mu   sync.Mutex
	msgs []string
}

func (h *handedOff) enqueue(_ context.Context, msgs []storage.OutboxMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range msgs {
		h.msgs = append(h.msgs, m.ID)
	}
}

func (h *handedOff) ids() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.msgs)
}

// A committed transaction hands its outbox messages to the queue once it
// has committed; one that wrote nothing, or rolled back, hands nothing.
func TestOutboxMessagesAreHandedOffAfterCommit(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	var h handedOff
	db.EnqueueAfterCommit(h.enqueue)

	if _, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 5000, 0, "")); !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("overdraft: %v", err)
	}
	if got := h.ids(); len(got) != 0 {
		t.Fatalf("a refused create handed off %v", got)
	}
	nw := newWithdrawal(in.ID, 100, 0, "pedido-1")
	if _, _, err := db.CreateWithdrawal(ctx, nw); err != nil {
		t.Fatal(err)
	}
	if got := h.ids(); !slices.Equal(got, []string{nw.Outbox[0].ID}) {
		t.Fatalf("handed off %v, want the create's message", got)
	}
	if _, created, err := db.CreateWithdrawal(ctx, nw); err != nil || created {
		t.Fatalf("replay: created %v, %v", created, err)
	}
	if got := h.ids(); len(got) != 1 {
		t.Fatalf("a replay handed off again: %v", got)
	}
}

// The relay takes only rows older than its delay, and a task's statement
// that names its task id deletes its row: a row queued after its commit
// and consumed never reaches the relay.
func TestRelayTakesOnlyRowsLeftBehind(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	if _, err := db.CreditWallet(ctx, in.ID, 1000, "seed"); err != nil {
		t.Fatal(err)
	}
	consumed, left := newWithdrawal(in.ID, 100, 0, ""), newWithdrawal(in.ID, 100, 0, "")
	for _, nw := range []storage.NewWithdrawal{consumed, left} {
		if _, _, err := db.CreateWithdrawal(ctx, nw); err != nil {
			t.Fatal(err)
		}
	}
	relayed := func(olderThan time.Duration) []string {
		var ids []string
		if _, err := db.RelayOutbox(ctx, olderThan, 100, func(_ context.Context, p storage.PendingOutbox) error {
			ids = append(ids, p.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	if got := relayed(time.Hour); len(got) != 0 {
		t.Fatalf("the relay took rows younger than its delay: %v", got)
	}
	if lag, err := db.OutboxLag(ctx, time.Hour); err != nil || lag != 0 {
		t.Fatalf("lag of young rows = %v, %v; want 0", lag, err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, consumed.ID, "pix-1", consumed.Outbox[0].ID); err != nil {
		t.Fatal(err)
	}
	if lag, err := db.OutboxLag(ctx, 0); err != nil || lag <= 0 {
		t.Fatalf("lag with a row left behind = %v, %v; want > 0", lag, err)
	}
	if got := relayed(0); !slices.Equal(got, []string{left.Outbox[0].ID}) {
		t.Fatalf("relayed %v, want only the row its task did not consume", got)
	}
	if got := relayed(0); len(got) != 0 {
		t.Fatalf("relayed twice: %v", got)
	}
}
