package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The delivery log pages newest first and filters; another integrator's
// postback is not found; a range is redelivered within its bound only.
func TestPostbackLogAndRangeRedelivery(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in, other := newIntegrator(t, db), newIntegrator(t, db)
	paid := createPostback(t, db, in.ID, "PAID")
	expired := createPostback(t, db, in.ID, "EXPIRED")
	foreign := createPostback(t, db, other.ID, "PAID")

	page, more, err := db.PostbackLog(ctx, storage.PostbackFilter{ListParams: storage.ListParams{IntegratorID: in.ID, Limit: 1}})
	if err != nil || !more || len(page) != 1 || page[0].ID != expired.ID {
		t.Fatalf("first page: %v %v %v", page, more, err)
	}
	page, more, err = db.PostbackLog(ctx, storage.PostbackFilter{ListParams: storage.ListParams{IntegratorID: in.ID, Limit: 1, After: &page[0].ID}})
	if err != nil || more || len(page) != 1 || page[0].ID != paid.ID {
		t.Fatalf("second page: %v %v %v", page, more, err)
	}
	future := time.Now().Add(time.Hour)
	cases := []struct {
		name string
		f    storage.PostbackFilter
		want int
	}{
		{"event", storage.PostbackFilter{Event: "PAID"}, 1},
		{"status", storage.PostbackFilter{ListParams: storage.ListParams{Status: string(storage.PostbackDelivered)}}, 0},
		{"resource type", storage.PostbackFilter{ResourceType: "withdrawal"}, 0},
		{"since", storage.PostbackFilter{Since: &future}, 0},
		{"until", storage.PostbackFilter{Until: &future}, 2},
	}
	for _, c := range cases {
		c.f.IntegratorID, c.f.Limit = in.ID, 10
		if got, _, err := db.PostbackLog(ctx, c.f); err != nil || len(got) != c.want {
			t.Errorf("%s: %d postbacks (%v), want %d", c.name, len(got), err, c.want)
		}
	}
	if _, err := db.IntegratorPostback(ctx, in.ID, foreign.ID); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("another integrator's postback: %v", err)
	}

	delivered := time.Now()
	if _, err := db.RecordPostbackAttempt(ctx, paid.ID, storage.PostbackAttemptResult{StatusCode: 200, Outcome: storage.OutcomeDelivered}); err != nil {
		t.Fatal(err)
	}
	past := delivered.Add(-time.Hour)
	msg := func(p storage.Postback) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "postback:deliver", ID: "range:" + p.ID.String(), Payload: []byte(`{}`)}
	}
	if _, err := db.RedeliverPostbackRange(ctx, in.ID, past, future, 1, msg); !errors.Is(err, storage.ErrTooManyPostbacks) {
		t.Fatalf("a range over its bound: %v", err)
	}
	if p, _ := db.Postback(ctx, paid.ID); p.Status != storage.PostbackDelivered {
		t.Fatalf("refused range changed %+v", p)
	}
	n, err := db.RedeliverPostbackRange(ctx, in.ID, past, future, 2, msg)
	if err != nil || n != 2 {
		t.Fatalf("range: %d %v", n, err)
	}
	if p, _ := db.Postback(ctx, paid.ID); p.Status != storage.PostbackPending || p.DeliveredAt != nil {
		t.Fatalf("redelivered: %+v", p)
	}
	if p, _ := db.Postback(ctx, foreign.ID); p.Status != storage.PostbackPending || p.Attempts != 0 {
		t.Fatalf("another integrator's postback: %+v", p)
	}
}

// An endpoint's summary: its last success, the failures since, what waits.
func TestEndpointSummaries(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	if list, err := db.EndpointSummaries(ctx, in.ID); err != nil || len(list) != 0 {
		t.Fatalf("no postback: %v %v", list, err)
	}
	ok, failing := createPostback(t, db, in.ID, "PAID"), createPostback(t, db, in.ID, "EXPIRED")
	next := time.Now().Add(time.Minute)
	record := func(id uuid.UUID, r storage.PostbackAttemptResult) {
		t.Helper()
		if _, err := db.RecordPostbackAttempt(ctx, id, r); err != nil {
			t.Fatal(err)
		}
	}
	record(ok.ID, storage.PostbackAttemptResult{StatusCode: 200, Outcome: storage.OutcomeDelivered})
	record(failing.ID, storage.PostbackAttemptResult{StatusCode: 500, Outcome: storage.OutcomeRetry, NextAttemptAt: &next})
	record(failing.ID, storage.PostbackAttemptResult{Err: "timeout", Outcome: storage.OutcomeRetry, NextAttemptAt: &next})
	if _, err := db.PauseEndpoint(ctx, in.ID, "https://loja.example/outra"); err != nil {
		t.Fatal(err)
	}
	list, err := db.EndpointSummaries(ctx, in.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("summaries: %+v %v", list, err)
	}
	other, shop := list[0], list[1]
	if other.Status != storage.EndpointPaused || other.ChangedAt == nil || other.Waiting != 0 || other.LastSuccessAt != nil {
		t.Errorf("paused endpoint with no postback: %+v", other)
	}
	if shop.URL != shopURL || shop.Status != storage.EndpointActive || shop.ChangedAt != nil || shop.LastSuccessAt == nil ||
		shop.FailuresInARow != 2 || shop.Waiting != 1 {
		t.Errorf("the shop's endpoint: %+v", shop)
	}
}
