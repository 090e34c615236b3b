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

// An endpoint's range is redelivered for its URL only, within its bound;
// no URL is refused.
func TestRedeliverEndpointPostbackRange(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	mine := createPostback(t, db, in.ID, "PAID") // to https://loja.example/pix
	id := uuid.Must(uuid.NewV7())
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, err := tx.CreatePostback(ctx, storage.NewPostback{ID: id, IntegratorID: in.ID, ResourceType: "charge",
			ResourceID: uuid.New(), Event: "PAID", URL: "https://other.example/pix", Body: []byte(`{"requestBody":{}}`),
			Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + id.String(), Payload: []byte(`{}`)}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []uuid.UUID{mine.ID, id} {
		if _, err := db.RecordPostbackAttempt(ctx, p, storage.PostbackAttemptResult{StatusCode: 200, Outcome: storage.OutcomeDelivered}); err != nil {
			t.Fatal(err)
		}
	}
	since, until := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	msg := func(p storage.Postback) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "postback:deliver", ID: "endpoint-range:" + p.ID.String(), Payload: []byte(`{}`)}
	}
	if _, err := db.RedeliverEndpointPostbackRange(ctx, in.ID, "", since, until, 10, msg); err == nil {
		t.Fatal("no URL accepted")
	}
	if _, err := db.RedeliverEndpointPostbackRange(ctx, in.ID, mine.URL, since, until, 0, msg); !errors.Is(err, storage.ErrTooManyPostbacks) {
		t.Fatalf("a range over its bound: %v", err)
	}
	n, err := db.RedeliverEndpointPostbackRange(ctx, in.ID, mine.URL, since, until, 1, msg)
	if err != nil || n != 1 {
		t.Fatalf("range: %d %v", n, err)
	}
	if p, _ := db.Postback(ctx, mine.ID); p.Status != storage.PostbackPending {
		t.Fatalf("the endpoint's postback: %+v", p)
	}
	if p, _ := db.Postback(ctx, id); p.Status != storage.PostbackDelivered {
		t.Fatalf("another URL's postback: %+v", p)
	}
}
