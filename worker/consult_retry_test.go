package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// An event whose consult went unanswered (or found the provider
// unavailable) comes back after consultRetry for its first retries, not
// after the growing back-off; later retries back off. An open breaker is
// still waited out.
func TestAnUnansweredConsultIsAskedAgainSoon(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		again bool // retried after consultRetry
	}{
		{"unanswered", &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrUnknownOutcome, Err: context.DeadlineExceeded}, true},
		{"unavailable", &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrUnavailable, StatusCode: 503}, true},
		{"breaker open", &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrBreakerOpen}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newFakeStore()
			p := &fakeProvider{consultErr: tc.err}
			c := newPendingCharge("pix-a")
			c.Provider = "a"
			st.charges[c.ID] = c
			st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: "charge", TransactionID: "pix-a", Status: "PAID", Provider: "a"}
			fl, err := fleet.New(fleet.Options{HedgeAttempts: 1},
				fleet.Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1}, Connector: member{name: "a", p: p}})
			if err != nil {
				t.Fatal(err)
			}
			w := newWorker(Config{Lanes: LaneConfig{Events: 4}}, st, fl, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
			task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: 1}, 0).Task()
			err = w.applyProviderEvent(context.Background(), task)
			if err == nil || !errors.Is(err, tc.err.(*providerclient.Error).Kind) {
				t.Fatalf("event with its consult failing: %v, want the provider's error", err)
			}
			delay := retryDelay(time.Second)
			first := delay(0, err, nil)
			if soon := first <= 2*consultRetry; soon != tc.again {
				t.Errorf("first retry after %v; asked again soon: %v, want %v", first, soon, tc.again)
			}
			if tc.again {
				if d := delay(consultRetries, err, nil); d < 4*consultRetry {
					t.Errorf("retry %d after %v, want the back-off", consultRetries, d)
				}
			}
		})
	}
}
