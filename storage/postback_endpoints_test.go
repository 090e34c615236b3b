package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

const shopURL = "https://loja.example/pix" // createPostback's URL

func TestEndpointPauseGateResume(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	in, other := newIntegrator(t, db), newIntegrator(t, db)
	first := createPostback(t, db, in.ID, "PAID")

	if g, err := db.GateDelivery(ctx, in.ID, shopURL, first.ID, ""); err != nil || g != storage.GateGo {
		t.Fatalf("never paused: gate %v %v", g, err)
	}
	if _, _, err := db.ResumeEndpoint(ctx, in.ID, shopURL, nil); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("resume of an endpoint never paused: %v", err)
	}
	e, err := db.PauseEndpoint(ctx, in.ID, shopURL)
	if err != nil || e.Status != storage.EndpointPaused {
		t.Fatalf("pause: %+v %v", e, err)
	}
	second := createPostback(t, db, in.ID, "EXPIRED")
	for _, p := range []storage.Postback{first, second} {
		if g, err := db.GateDelivery(ctx, in.ID, shopURL, p.ID, ""); err != nil || g != storage.GateHold {
			t.Fatalf("paused: gate %v %v", g, err)
		}
	}
	// Another integrator's endpoint at the same URL is its own.
	if g, _ := db.GateDelivery(ctx, other.ID, shopURL, first.ID, ""); g != storage.GateGo {
		t.Fatalf("another integrator's endpoint: gate %v", g)
	}
	// Held postbacks are no reconciler's business, however late.
	overdue, err := db.OverduePostbacks(ctx, -time.Hour, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range overdue {
		if p.IntegratorID == in.ID {
			t.Fatalf("a held postback is overdue: %+v", p)
		}
	}

	var queued []string
	e, n, err := db.ResumeEndpoint(ctx, in.ID, shopURL, func(p storage.Postback) storage.OutboxMessage {
		queued = append(queued, p.ID.String())
		return storage.OutboxMessage{Type: "postback:deliver", ID: "resume:" + p.ID.String(), Payload: []byte(`{}`)}
	})
	if err != nil || e.Status != storage.EndpointActive || n != 2 || queued[0] != first.ID.String() || queued[1] != second.ID.String() {
		t.Fatalf("resume: %+v %d %v %v", e, n, queued, err)
	}
	// Resumed: the oldest goes first, the next waits while it is due.
	if g, _ := db.GateDelivery(ctx, in.ID, shopURL, first.ID, ""); g != storage.GateGo {
		t.Fatalf("oldest after resume: gate %v", g)
	}
	if g, _ := db.GateDelivery(ctx, in.ID, shopURL, second.ID, ""); g != storage.GateWait {
		t.Fatalf("second after resume: gate %v", g)
	}
	if _, err := db.RecordPostbackAttempt(ctx, first.ID, storage.PostbackAttemptResult{StatusCode: 200,
		Outcome: storage.OutcomeDelivered}); err != nil {
		t.Fatal(err)
	}
	if g, _ := db.GateDelivery(ctx, in.ID, shopURL, second.ID, ""); g != storage.GateGo {
		t.Fatalf("second once the first is delivered: gate %v", g)
	}
	list, err := db.Endpoints(ctx, in.ID)
	if err != nil || len(list) != 1 || list[0].Status != storage.EndpointActive {
		t.Fatalf("endpoints: %+v %v", list, err)
	}
	if list, _ := db.Endpoints(ctx, other.ID); len(list) != 0 {
		t.Fatalf("another integrator's endpoints: %+v", list)
	}
}
