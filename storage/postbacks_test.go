package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// createPostback commits a postback as a state change would.
func createPostback(t *testing.T, db *storage.DB, integrator int64, event string) storage.Postback {
	t.Helper()
	ctx := context.Background()
	id, resource := uuid.Must(uuid.NewV7()), uuid.New()
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		created, err := tx.CreatePostback(ctx, storage.NewPostback{ID: id, IntegratorID: integrator, ResourceType: "charge",
			ResourceID: resource, Event: event, URL: "https://loja.example/pix", Body: []byte(`{"requestBody":{}}`),
			Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + id.String(), Payload: []byte(`{}`)}})
		if !created && err == nil {
			err = errors.New("not created")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.Postback(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRecordPostbackAttempt(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	p := createPostback(t, db, in.ID, "PAID")
	if p.Status != storage.PostbackPending || p.Attempts != 0 || p.NextAttemptAt == nil || string(p.Body) != `{"requestBody":{}}` {
		t.Fatalf("new postback = %+v", p)
	}

	next := time.Now().Add(time.Minute)
	p, err := db.RecordPostbackAttempt(ctx, p.ID, storage.PostbackAttemptResult{StatusCode: 503, Latency: 120 * time.Millisecond,
		Err: "receiver answered 503", Outcome: storage.OutcomeRetry, NextAttemptAt: &next})
	if err != nil || p.Status != storage.PostbackPending || p.Attempts != 1 || *p.LastStatusCode != 503 ||
		*p.LastError != "receiver answered 503" || !p.NextAttemptAt.Equal(next.Truncate(time.Microsecond)) {
		t.Fatalf("after a retryable failure: %+v %v", p, err)
	}
	p, err = db.RecordPostbackAttempt(ctx, p.ID, storage.PostbackAttemptResult{Latency: 10 * time.Second,
		Err: "timeout", Outcome: storage.OutcomeRetry, NextAttemptAt: &next})
	if err != nil || p.Attempts != 2 || p.LastStatusCode != nil {
		t.Fatalf("after a timeout: %+v %v", p, err)
	}
	p, err = db.RecordPostbackAttempt(ctx, p.ID, storage.PostbackAttemptResult{StatusCode: 200, Latency: time.Millisecond, Outcome: storage.OutcomeDelivered})
	if err != nil || p.Status != storage.PostbackDelivered || p.Attempts != 3 || p.DeliveredAt == nil || p.NextAttemptAt != nil || p.LastError != nil {
		t.Fatalf("after delivery: %+v %v", p, err)
	}

	// A late attempt (a duplicate task) changes nothing.
	late, err := db.RecordPostbackAttempt(ctx, p.ID, storage.PostbackAttemptResult{StatusCode: 500, Outcome: storage.OutcomeFailed})
	if err != nil || late.Status != storage.PostbackDelivered || late.Attempts != 3 || *late.LastStatusCode != 200 {
		t.Fatalf("a late failure changed a delivered postback: %+v %v", late, err)
	}
	attempts, err := db.PostbackAttempts(ctx, p.ID)
	if err != nil || len(attempts) != 3 {
		t.Fatalf("attempts = %+v %v", attempts, err)
	}
	if a := attempts[0]; a.Attempt != 1 || *a.StatusCode != 503 || a.Latency != 120*time.Millisecond || *a.Error != "receiver answered 503" {
		t.Fatalf("first attempt = %+v", a)
	}
	if a := attempts[1]; a.StatusCode != nil || *a.Error != "timeout" {
		t.Fatalf("second attempt = %+v", a)
	}

	if _, err := db.RecordPostbackAttempt(ctx, p.ID, storage.PostbackAttemptResult{Outcome: storage.OutcomeRetry}); !errors.Is(err, storage.ErrBadOutcome) {
		t.Fatalf("retry without a time: %v", err)
	}
	if _, err := db.RecordPostbackAttempt(ctx, uuid.New(), storage.PostbackAttemptResult{Outcome: storage.OutcomeFailed}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("unknown postback: %v", err)
	}
}

// Attempts racing on one postback get distinct numbers, and once one of
// them finishes it, the others record nothing.
func TestRecordPostbackAttemptConcurrent(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	p := createPostback(t, db, newIntegrator(t, db).ID, "PAID")
	next := time.Now().Add(time.Minute)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			res := storage.PostbackAttemptResult{StatusCode: 500, Outcome: storage.OutcomeRetry, NextAttemptAt: &next}
			if i == 5 {
				res = storage.PostbackAttemptResult{StatusCode: 410, Outcome: storage.OutcomeStopped}
			}
			if _, err := db.RecordPostbackAttempt(ctx, p.ID, res); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	p, _ = db.Postback(ctx, p.ID)
	attempts, _ := db.PostbackAttempts(ctx, p.ID)
	if p.Status != storage.PostbackStopped || p.Attempts != len(attempts) || *attempts[len(attempts)-1].StatusCode != 410 {
		t.Fatalf("postback %+v after %d attempts", p, len(attempts))
	}
}

func TestRedeliverAndOverduePostbacks(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in := newIntegrator(t, db)
	failed := createPostback(t, db, in.ID, "PAID")
	due := createPostback(t, db, in.ID, "EXPIRED")
	if _, err := db.RecordPostbackAttempt(ctx, failed.ID, storage.PostbackAttemptResult{StatusCode: 500, Outcome: storage.OutcomeFailed}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, `UPDATE postbacks SET next_attempt_at = now() - interval '10 minutes' WHERE id = $1`, due.ID); err != nil {
		t.Fatal(err)
	}
	overdue, err := db.OverduePostbacks(ctx, 5*time.Minute, 10)
	if err != nil || len(overdue) != 1 || overdue[0].ID != due.ID {
		t.Fatalf("overdue = %+v %v (the FAILED one must not be listed)", overdue, err)
	}
	if overdue, _ := db.OverduePostbacks(ctx, 15*time.Minute, 10); len(overdue) != 0 {
		t.Fatalf("overdue by 15 minutes = %+v", overdue)
	}

	// The reconciler's redrive acts once on the overdue postback, never on the FAILED one.
	redrive := storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + due.ID.String() + ":9", Payload: []byte(`{}`)}
	for i, tt := range []struct {
		id   uuid.UUID
		want bool
	}{{failed.ID, false}, {due.ID, true}, {due.ID, false}} {
		if ok, err := db.RedriveOverduePostback(ctx, tt.id, 5*time.Minute, redrive); err != nil || ok != tt.want {
			t.Fatalf("redrive %d: %v %v, want %v", i, ok, err, tt.want)
		}
	}
	if p, _ := db.Postback(ctx, failed.ID); p.Status != storage.PostbackFailed {
		t.Fatalf("redrive touched a FAILED postback: %+v", p)
	}
	if n := unsentOutbox(t, db, redrive.ID); n != 1 {
		t.Fatalf("outbox rows for the redrive = %d", n)
	}

	msg := storage.OutboxMessage{Type: "postback:deliver", ID: "postback:deliver:" + failed.ID.String() + ":2", Payload: []byte(`{}`)}
	p, err := db.RedeliverPostback(ctx, failed.ID, msg)
	if err != nil || p.Status != storage.PostbackPending || p.Attempts != 1 || p.NextAttemptAt == nil {
		t.Fatalf("redelivered = %+v %v", p, err)
	}
	if n := unsentOutbox(t, db, msg.ID); n != 1 {
		t.Fatalf("outbox rows for the redelivery = %d", n)
	}
	if _, err := db.RedeliverPostback(ctx, uuid.New(), msg); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("redeliver unknown: %v", err)
	}

	list, err := db.ListPostbacks(ctx, in.ID, 1)
	if err != nil || len(list) != 1 || list[0].ID != due.ID {
		t.Fatalf("newest postback = %+v %v", list, err)
	}
	if list, _ := db.ListPostbacks(ctx, in.ID+1, 10); len(list) != 0 {
		t.Fatalf("another integrator's postbacks listed: %+v", list)
	}
}

func unsentOutbox(t *testing.T, db *storage.DB, taskID string) int {
	t.Helper()
	var n int
	if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE task_id = $1 AND enqueued_at IS NULL`, taskID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
