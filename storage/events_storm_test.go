package storage_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A storm of one claim whose copies all arrive at once is one event and
// one outbox row: every copy is answered with that event's id. Each copy
// used to look for an earlier one and then write its own, so the copies
// that looked before the first was written were all stored (77 to 219
// of 300 simultaneous copies through the API).
func TestSimultaneousCopiesOfAClaimAreOneEvent(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	record := func(id string) (int64, bool, error) {
		return db.RecordProviderEvent(ctx, storage.NewProviderEvent{TransactionType: "charge", TransactionID: id, Status: "PENDING",
			Payload: []byte(`{}`)}, func(eventID int64) storage.OutboxMessage {
			return storage.OutboxMessage{Type: "provider:event", ID: fmt.Sprint("provider:event:", eventID), Payload: []byte(`{}`)}
		})
	}
	const copies = 64
	var mu sync.Mutex
	ids, stored := map[int64]int{}, 0
	storm := make([]func() error, copies)
	for i := range storm {
		storm[i] = func() error {
			id, ok, err := record("storm-1")
			mu.Lock()
			defer mu.Unlock()
			ids[id]++
			if ok {
				stored++
			}
			return err
		}
	}
	// Another claim's copies, at the same time, are not held back by it.
	storm = append(storm, func() error {
		_, ok, err := record("storm-2")
		if err == nil && !ok {
			err = fmt.Errorf("the first copy of another claim was not stored")
		}
		return err
	})
	together(t, storm...)
	if stored != 1 || len(ids) != 1 {
		t.Fatalf("%d simultaneous copies: %d stored, answered with ids %v; want one stored and every copy answered with its id", copies, stored, ids)
	}
	var events, outbox int
	if err := db.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM provider_events WHERE transaction_id = 'storm-1'),
		(SELECT count(*) FROM outbox WHERE task_type = 'provider:event')`).Scan(&events, &outbox); err != nil {
		t.Fatal(err)
	}
	if events != 1 || outbox != 2 {
		t.Fatalf("events of the storm %d, outbox rows %d; want 1 and 2 (one per claim)", events, outbox)
	}
}
