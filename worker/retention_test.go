package worker

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// exec runs a statement on the test database (to backdate rows).
func (h *harness) exec(sql string, args ...any) {
	h.t.Helper()
	if _, err := h.db.Pool().Exec(context.Background(), sql, args...); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) count(sql string) int {
	h.t.Helper()
	var n int
	if err := h.db.Pool().QueryRow(context.Background(), sql).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// Processed notifications and queued outbox rows older than their retention
// are deleted; what is unfinished, or younger, stays whatever its age.
func TestRetentionPrunesFinishedBookkeeping(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	for i := range 7 {
		if _, _, err := h.db.RecordProviderEvent(ctx, storage.NewProviderEvent{
			TransactionType: "payout", TransactionID: "tx" + string(rune('a'+i)), Status: "COMPLETED", Payload: []byte(`{}`),
		}, func(id int64) storage.OutboxMessage {
			return storage.OutboxMessage(tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: id}, 0))
		}); err != nil {
			t.Fatal(err)
		}
	}
	// Events a–e processed 31 days ago, f processed yesterday, g never
	// processed though received 40 days ago; outbox rows likewise.
	h.exec(`UPDATE provider_events SET received_at = now() - interval '40 days', processed_at = now() - interval '31 days', outcome = 'x'
		WHERE transaction_id < 'txf'`)
	h.exec(`UPDATE provider_events SET processed_at = now() - interval '1 day', outcome = 'x' WHERE transaction_id = 'txf'`)
	h.exec(`UPDATE provider_events SET received_at = now() - interval '40 days' WHERE transaction_id = 'txg'`)
	h.exec(`UPDATE outbox SET created_at = now() - interval '40 days', enqueued_at = now() - interval '31 days' WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT 5)`)
	h.exec(`UPDATE outbox SET enqueued_at = now() - interval '1 day' WHERE id = (SELECT id FROM outbox ORDER BY id OFFSET 5 LIMIT 1)`)
	h.exec(`UPDATE outbox SET created_at = now() - interval '40 days' WHERE enqueued_at IS NULL`)

	r := &retention{store: h.db, cfg: RetentionConfig{Batch: 2}.withDefaults(), log: h.log}
	r.prune(ctx)
	if got := h.count(`SELECT count(*) FROM provider_events`); got != 2 {
		t.Fatalf("provider events left: %d, want 2 (the recent one and the unprocessed one)", got)
	}
	if got := h.count(`SELECT count(*) FROM provider_events WHERE transaction_id IN ('txf', 'txg')`); got != 2 {
		t.Fatal("an unfinished or recent event was pruned")
	}
	if got := h.count(`SELECT count(*) FROM outbox`); got != 2 {
		t.Fatalf("outbox rows left: %d, want 2 (the recent one and the unsent one)", got)
	}
	if got := h.count(`SELECT count(*) FROM outbox WHERE enqueued_at IS NULL`); got != 1 {
		t.Fatal("an unsent outbox row was pruned")
	}

	// Negative retention keeps everything.
	h.exec(`UPDATE provider_events SET processed_at = now() - interval '400 days', outcome = 'x'`)
	h.exec(`UPDATE outbox SET enqueued_at = now() - interval '400 days'`)
	keep := &retention{store: h.db, cfg: RetentionConfig{ProcessedEvents: -1, SentOutbox: -1}.withDefaults(), log: h.log}
	keep.prune(ctx)
	if h.count(`SELECT count(*) FROM provider_events`) != 2 || h.count(`SELECT count(*) FROM outbox`) != 2 {
		t.Fatal("negative retention pruned")
	}
}

// A running worker prunes on its own.
func TestWorkerRunsRetention(t *testing.T) {
	h := newHarness(t)
	h.receive("payout", "old", "COMPLETED")
	h.exec(`UPDATE provider_events SET processed_at = now() - interval '31 days', outcome = 'x'`)
	h.exec(`UPDATE outbox SET enqueued_at = now() - interval '31 days'`)
	h.start()
	h.eventually("old bookkeeping pruned", 5*time.Second, func() bool {
		return h.count(`SELECT (SELECT count(*) FROM provider_events) + (SELECT count(*) FROM outbox)`) == 0
	})
}
