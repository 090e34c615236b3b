package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An event's pick reads the record its claim names in the same round
// trip: a charge, a transfer of a kind, or none (an id PixGate does not
// know, or no lookup); an unknown event is ErrNotFound.
func TestPickProviderEventReadsTheRecordItNames(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, c := paidCharge(t, db, 1000)
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "order-pick"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "pix-w-pick", ""); err != nil {
		t.Fatal(err)
	}
	record := func(typ, txID string) int64 {
		id, _, err := db.RecordProviderEvent(ctx, storage.NewProviderEvent{TransactionType: typ, TransactionID: txID, Status: "X",
			Payload: []byte(`{}`)}, func(id int64) storage.OutboxMessage {
			return storage.OutboxMessage{Type: "provider:event", ID: "ev-" + txID, Payload: []byte(`{}`)}
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, tt := range []struct {
		name         string
		look         storage.RecordLookup
		wantCharge   bool
		wantTransfer bool
	}{
		{"a charge", storage.RecordLookup{Charge: true, PixID: *c.PixID}, true, false},
		{"a withdrawal", storage.RecordLookup{Kind: storage.KindWithdrawal, PixID: "pix-w-pick"}, false, true},
		{"a refund PixGate does not know", storage.RecordLookup{Kind: storage.KindRefund, PixID: "pix-w-pick"}, false, false},
		{"no lookup", storage.RecordLookup{}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := record("charge", tt.name)
			ev, rec, err := db.PickProviderEvent(ctx, id, tt.look)
			if err != nil || ev.ID != id {
				t.Fatalf("pick = %+v, %v", ev, err)
			}
			if (rec.Charge != nil) != tt.wantCharge || (rec.Transfer != nil) != tt.wantTransfer {
				t.Fatalf("record = %+v, want charge %v transfer %v", rec, tt.wantCharge, tt.wantTransfer)
			}
			if rec.Charge != nil && rec.Charge.ID != c.ID || rec.Transfer != nil && rec.Transfer.ID != w.ID {
				t.Fatalf("record = %+v, want charge %s or withdrawal %s", rec, c.ID, w.ID)
			}
		})
	}
	if _, _, err := db.PickProviderEvent(ctx, 1<<40, storage.RecordLookup{Charge: true, PixID: *c.PixID}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("pick of no event = %v, want ErrNotFound", err)
	}
}

// Two processes storing notifications at once draw their events' ids from
// blocks each reserved: every stored event has an id of its own, and its
// outbox message is the one built from that id.
func TestEventIDsOfTwoProcessesNeverCollide(t *testing.T) {
	url := storagetest.NewDatabaseURL(t)
	ctx := context.Background()
	var dbs [2]*storage.DB
	for i := range dbs {
		db, err := storage.Open(ctx, storage.Config{URL: url, MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		dbs[i] = db
	}
	const each = 100
	ids := make(chan int64, 2*each)
	var wg sync.WaitGroup
	for i, db := range dbs {
		for n := range each {
			wg.Go(func() {
				txID := fmt.Sprintf("tx-%d-%d", i, n)
				id, stored, err := db.RecordProviderEvent(ctx, storage.NewProviderEvent{TransactionType: "charge", TransactionID: txID,
					Status: "PAID", Payload: []byte(`{}`)}, func(id int64) storage.OutboxMessage {
					return storage.OutboxMessage{Type: "provider:event", ID: fmt.Sprint("provider:event:", id), Payload: []byte(`{}`)}
				})
				if err != nil || !stored {
					t.Errorf("%s: stored %v, %v", txID, stored, err)
				}
				ids <- id
			})
		}
	}
	wg.Wait()
	close(ids)
	seen := map[int64]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("id %d drawn twice", id)
		}
		seen[id] = true
	}
	var events, outbox int
	if err := dbs[0].Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM provider_events),
		(SELECT count(*) FROM outbox o JOIN provider_events e ON o.task_id = 'provider:event:' || e.id)`).Scan(&events, &outbox); err != nil {
		t.Fatal(err)
	}
	if events != 2*each || outbox != 2*each {
		t.Fatalf("%d events and %d outbox rows naming them, want %d of each", events, outbox, 2*each)
	}
}

// An event keeps the provider whose webhook it came to and PixGate's own
// id as the notification named it; copies of one claim from two providers
// are two events (their transaction ids are theirs, not one namespace).
func TestEventsKeepTheirProvider(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	record := func(provider string) (int64, bool) {
		id, stored, err := db.RecordProviderEvent(ctx, storage.NewProviderEvent{TransactionType: "payout", TransactionID: "same-id",
			Status: "COMPLETED", Payload: []byte(`{}`), Provider: provider, ExternalID: "0190f1a2b3c4d5e6f708192a3b4c5d6e"},
			func(id int64) storage.OutboxMessage {
				return storage.OutboxMessage{Type: "provider:event", ID: fmt.Sprint("ev-", provider), Payload: []byte(`{}`)}
			})
		if err != nil {
			t.Fatal(err)
		}
		return id, stored
	}
	a, storedA := record("default")
	b, storedB := record("b")
	if !storedA || !storedB || a == b {
		t.Fatalf("events %d (stored %v) and %d (stored %v): one per provider", a, storedA, b, storedB)
	}
	ev, _, err := db.PickProviderEvent(ctx, b, storage.RecordLookup{})
	if err != nil || ev.Provider != "b" || ev.ExternalID != "0190f1a2b3c4d5e6f708192a3b4c5d6e" {
		t.Fatalf("event = %+v, %v; want provider b and PixGate's id", ev, err)
	}
}
