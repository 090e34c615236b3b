package fleet

import (
	"context"
	"maps"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
)

// BreakerStates names every provider's breaker of every lane: a's create
// breaker opens on its one refused charge, the rest stay closed.
func TestBreakerStates(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	a.creates = []error{errRefused}
	fl, err := New(Options{}, Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1, BreakerFailures: 1, BreakerFailureRatio: 1}, Connector: a},
		Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: b})
	if err != nil {
		t.Fatal(err)
	}
	closed := map[providerclient.Lane]string{}
	for _, lane := range providerclient.Lanes {
		closed[lane] = "closed"
	}
	states := fl.BreakerStates()
	if len(states) != 2 || !maps.Equal(states["a"], closed) || !maps.Equal(states["b"], closed) {
		t.Fatalf("before any call: %v", states)
	}
	if _, err := fl.members["a"].hasty.CreateCharge(context.Background(), providerclient.ChargeRequest{ID: "c1"}); err == nil {
		t.Fatal("a's refused charge succeeded")
	}
	wantA := maps.Clone(closed)
	wantA[providerclient.LaneCreate] = "open"
	states = fl.BreakerStates()
	if !maps.Equal(states["a"], wantA) || !maps.Equal(states["b"], closed) {
		t.Fatalf("after a's refused charge: %v", states)
	}
}
