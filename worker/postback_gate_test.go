package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// gateStore answers one gate for every delivery; never: no endpoint of
// any integrator was ever held, so no gate is asked.
type gateStore struct {
	*fakeStore
	gate  storage.EndpointGate
	never bool
	asked int
}

func (s *gateStore) MayHoldDeliveries(context.Context, int64) (bool, error) { return !s.never, nil }

func (s *gateStore) GateDelivery(context.Context, int64, string, uuid.UUID, string) (storage.EndpointGate, error) {
	s.asked++
	return s.gate, nil
}

// An integrator none of whose endpoints was ever held delivers without
// asking the endpoint's gate (no statement on the way of its postbacks).
func TestPostbackGateNotAskedWhenNothingWasHeld(t *testing.T) {
	st := &gateStore{fakeStore: newFakeStore(), gate: storage.GateHold, never: true}
	w := newWorker(Config{Postbacks: postback.Config{PerIntegrator: 1}}, st, nil, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	release, err := w.gatePostback(context.Background(), storage.Postback{IntegratorID: 1, URL: "https://loja.example/pix"})
	if err != nil || st.asked != 0 {
		t.Fatalf("gate: %v, asked %d times", err, st.asked)
	}
	release()
}

// While an integrator's deliveries hold all its slots (its endpoint
// hangs), its next one waits without an attempt, and another integrator's
// goes; a slot given back is taken again.
func TestPostbackGateIntegratorCap(t *testing.T) {
	st := &gateStore{fakeStore: newFakeStore()}
	w := newWorker(Config{Postbacks: postback.Config{PerIntegrator: 2}}, st, nil, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	ctx := context.Background()
	slow, other := storage.Postback{IntegratorID: 1, URL: "https://slow.example/pix"}, storage.Postback{IntegratorID: 2, URL: "https://fast.example/pix"}
	var hanging []func()
	for range 2 {
		release, err := w.gatePostback(ctx, slow)
		if err != nil {
			t.Fatalf("within the cap: %v", err)
		}
		hanging = append(hanging, release)
	}
	if _, err := w.gatePostback(ctx, slow); !errors.Is(err, errShareFull) || isFailure(err) {
		t.Fatalf("over the cap: %v (must wait without spending a retry)", err)
	}
	release, err := w.gatePostback(ctx, other)
	if err != nil {
		t.Fatalf("another integrator while the first hangs: %v", err)
	}
	release()
	hanging[0]()
	if release, err = w.gatePostback(ctx, slow); err != nil {
		t.Fatalf("after a slot was given back: %v", err)
	}
	release()
}

// The endpoint's gate: held (the task is done, nothing attempted), in
// order (wait without spending a retry), and each gives its slot back.
func TestPostbackGateEndpoint(t *testing.T) {
	for _, tc := range []struct {
		gate storage.EndpointGate
		want error
	}{
		{storage.GateGo, nil},
		{storage.GateHold, errEndpointHeld},
		{storage.GateWait, errEndpointOrder},
	} {
		st := &gateStore{fakeStore: newFakeStore(), gate: tc.gate}
		w := newWorker(Config{Postbacks: postback.Config{PerIntegrator: 1}}, st, nil, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		pb := storage.Postback{IntegratorID: 1, URL: "https://loja.example/pix"}
		release, err := w.gatePostback(context.Background(), pb)
		if !errors.Is(err, tc.want) {
			t.Fatalf("gate %v: %v, want %v", tc.gate, err, tc.want)
		}
		if release != nil {
			release()
		}
		if _, ok := w.postbackSlots.take(1); !ok {
			t.Fatalf("gate %v kept the integrator's slot", tc.gate)
		}
	}
}

// A paused endpoint's postback is not attempted and waits PENDING; once
// resumed, it is delivered by the task the resume queues.
func TestPausedEndpointIsNotAttempted(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	rc := newReceiver(t, status(http.StatusOK))
	url := rc.srv.URL + "/pix"
	if _, err := h.db.PauseEndpoint(ctx, h.integrator.ID, url); err != nil {
		t.Fatal(err)
	}
	pb, task := h.newPostbackTask(url)
	w := h.postbackWorker(devPolicy)
	if err := w.Handler().ProcessTask(ctx, task); err != nil {
		t.Fatal(err)
	}
	if p := h.postback(pb.ID); len(rc.requests()) != 0 || p.Status != storage.PostbackPending || p.Attempts != 0 {
		t.Fatalf("paused: %d requests, postback %+v", len(rc.requests()), p)
	}
	var msgs []storage.OutboxMessage
	if _, _, err := h.db.ResumeEndpoint(ctx, h.integrator.ID, url, func(p storage.Postback) storage.OutboxMessage {
		m := storage.OutboxMessage(tasks.PostbackDeliverMessage(p.ID, 1))
		msgs = append(msgs, m)
		return m
	}); err != nil || len(msgs) != 1 {
		t.Fatalf("resume: %d messages, %v", len(msgs), err)
	}
	resumed, err := tasks.Message(msgs[0]).Task()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Handler().ProcessTask(ctx, resumed); err != nil {
		t.Fatal(err)
	}
	if p := h.postback(pb.ID); len(rc.requests()) != 1 || p.Status != storage.PostbackDelivered || p.Attempts != 1 {
		t.Fatalf("resumed: %d requests, postback %+v", len(rc.requests()), p)
	}
}
