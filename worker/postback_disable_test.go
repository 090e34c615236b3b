package worker

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/postback"
)

// disablingStore is the fake store with endpoints to disable: it records
// the time it was asked about and answers list (or err).
type disablingStore struct {
	*fakeStore
	asked []time.Time
	list  []storage.DisabledEndpoint
	err   error
}

func (s *disablingStore) DisableFailingEndpoints(_ context.Context, failingBefore time.Time, _ int) ([]storage.DisabledEndpoint, error) {
	s.asked = append(s.asked, failingBefore)
	return s.list, s.err
}

func TestDisableFailingEndpointsStep(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	reason := "failing since 2026-03-06T12:00:00Z: every delivery failed"
	for _, tt := range []struct {
		name      string
		cfg       Config
		slot      int64
		list      []storage.DisabledEndpoint
		err       error
		wantAsked time.Time // zero: not asked
		wantCount float64
	}{
		{"default 72h", Config{}, 0, []storage.DisabledEndpoint{{WebhookEndpoint: storage.WebhookEndpoint{IntegratorID: 7,
			URL: "https://loja.example/pix", Status: storage.EndpointDisabled, Reason: &reason}, FailingSince: now.Add(-96 * time.Hour)}},
			nil, now.Add(-72 * time.Hour), 1},
		{"configured", Config{Postbacks: postback.Config{DisableAfter: 24 * time.Hour}}, 24, nil, nil, now.Add(-24 * time.Hour), 0},
		{"not this tick", Config{}, 5, nil, nil, time.Time{}, 0},
		{"store fails", Config{}, 12, nil, errors.New("boom"), now.Add(-72 * time.Hour), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := &disablingStore{fakeStore: newFakeStore(), list: tt.list, err: tt.err}
			var logs bytes.Buffer
			m := newWorkerMetrics(prometheus.NewRegistry())
			w := newWorker(tt.cfg, st, &fakeProvider{}, &fakeQueue{}, slog.New(slog.NewTextHandler(&logs, nil)), m)
			w.now = func() time.Time { return now }
			err := w.disableFailingEndpoints(context.Background(), tt.slot)
			if (err != nil) != (tt.err != nil) {
				t.Fatalf("err = %v", err)
			}
			if tt.wantAsked.IsZero() != (len(st.asked) == 0) || (len(st.asked) == 1 && !st.asked[0].Equal(tt.wantAsked)) {
				t.Fatalf("asked %v, want %v", st.asked, tt.wantAsked)
			}
			var got dto.Metric
			if err := m.disabled.Write(&got); err != nil || got.GetCounter().GetValue() != tt.wantCount {
				t.Fatalf("counter = %v (%v), want %v", got.GetCounter().GetValue(), err, tt.wantCount)
			}
			if tt.wantCount > 0 && (!strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "integrator_id=7")) {
				t.Fatalf("log: %s", logs.String())
			}
		})
	}
}

// The step is one of the reconciler's, and finds nothing to disable in a
// store without failing endpoints.
func TestDisableFailingEndpointsIsAStep(t *testing.T) {
	w := newWorker(Config{}, newFakeStore(), &fakeProvider{}, &fakeQueue{}, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)), nil)
	if err := w.disableFailingEndpoints(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range w.reconcileSteps() {
		found = found || s.name == "failing endpoints"
	}
	if !found {
		t.Fatal("the reconciler has no failing endpoints step")
	}
}
