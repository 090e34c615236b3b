package payments

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/tasks"
)

// A notification is stored as it came, with the task that has a worker
// confirm it; one that names no transaction is refused and stores nothing.
func TestReceiveNotification(t *testing.T) {
	store := newFakeStore()
	s := New(Config{}, store, &fakeProvider{}, nil)
	body := []byte(`{"requestBody": {"transactionType": "PAYMENT", "transactionId": "abc123", "status": "completed"}}`)
	duplicate, err := s.ReceiveNotification(context.Background(), providerclient.DefaultName, nil, body)
	if err != nil || duplicate {
		t.Fatalf("ReceiveNotification = %v, %v", duplicate, err)
	}
	if len(store.events) != 1 {
		t.Fatalf("events = %+v", store.events)
	}
	e := store.events[0]
	if e.TransactionType != string(providerclient.KindPayout) || e.TransactionID != "abc123" || e.Status != "COMPLETED" || string(e.Payload) != string(body) {
		t.Fatalf("event = %+v", e)
	}
	if e.Provider != providerclient.DefaultName {
		t.Fatalf("event of provider %q, want the provider whose path it came to", e.Provider)
	}
	want := tasks.NewProviderEventMessage(tasks.ProviderEvent{EventID: 1, TransactionType: string(providerclient.KindPayout), TransactionID: "abc123"})
	if !strings.HasPrefix(store.outbox[0].ID, "provider:event:1-") || store.outbox[0].Type != want.Type ||
		string(store.outbox[0].Payload) != string(want.Payload) {
		t.Fatalf("outbox = %+v, want %+v", store.outbox[0], want)
	}
	var ne *providerclient.NotificationError
	for _, bad := range []string{`not json`, `{"status": "PAID"}`, `{"transactionId": "x"}`} {
		if _, err := s.ReceiveNotification(context.Background(), providerclient.DefaultName, nil, []byte(bad)); !errors.As(err, &ne) {
			t.Errorf("%s: %v, want a NotificationError", bad, err)
		}
	}
	if len(store.events) != 1 {
		t.Fatalf("refused notifications were stored: %+v", store.events)
	}
}
