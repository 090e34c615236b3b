package fleet

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

func TestPlanOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		route Route
		pick  int // what the weighted pick draws
		want  []string
	}{
		{"in order without weights", Route{{Provider: "a"}, {Provider: "b"}, {Provider: "c"}}, 0, []string{"a", "b", "c"}},
		{"a:80,b:20 drawing 0", Route{{"a", 80}, {"b", 20}}, 0, []string{"a", "b"}},
		{"a:80,b:20 drawing 79", Route{{"a", 80}, {"b", 20}}, 79, []string{"a", "b"}},
		{"a:80,b:20 drawing 80: b first, then a", Route{{"a", 80}, {"b", 20}}, 80, []string{"b", "a"}},
		{"a:80,b:20 drawing 99", Route{{"a", 80}, {"b", 20}}, 99, []string{"b", "a"}},
		{"a weightless, b:1, c weightless: b first, then the order", Route{{Provider: "a"}, {"b", 1}, {Provider: "c"}}, 0, []string{"b", "a", "c"}},
		{"a:1,b:1,c:1 drawing 2: c, then a, b", Route{{"a", 1}, {"b", 1}, {"c", 1}}, 2, []string{"c", "a", "b"}},
		{"unknown names left out", Route{{Provider: "x"}, {Provider: "b"}, {Provider: "a"}}, 0, []string{"b", "a"}},
		{"negative weights count as none", Route{{"a", -5}, {"b", 0}}, 0, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var drawnFrom int
			fl := newFleet(t, Options{Pick: func(n int) int { drawnFrom = n; return tc.pick }}, false, newFake("a"), newFake("b"), newFake("c"))
			if got := names(fl.plan(context.Background(), tc.route, providerclient.LaneCreate)); !slices.Equal(got, tc.want) {
				t.Fatalf("plan = %v, want %v (drawn from %d)", got, tc.want, drawnFrom)
			}
		})
	}
}

// A provider whose success rate falls below the threshold is eliminated:
// it goes after the others, and a probe that reads its balance puts it
// back.
func TestEliminationAndProbes(t *testing.T) {
	clk := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	a, b := newFake("a"), newFake("b")
	a.creates = []error{nil, errRejected, err503, errRefused, errTimeout, errTimeout}
	a.reads = []error{errRefused}
	a.balance = []error{errRefused, nil}
	fl := newFleet(t, Options{Now: clk.Now, HealthMinCalls: 6, HealthThreshold: 0.5, ProbeInterval: time.Minute,
		HealthWindow: 10 * time.Minute}, false, a, b)
	route := Route{{Provider: "a"}, {Provider: "b"}}
	ctx := context.Background()
	ma := fl.members["a"]
	issue := func() {
		t.Helper()
		if _, err := ma.hasty.CreateCharge(ctx, providerclient.ChargeRequest{ID: "c"}); err != nil && ChargeVerdict(err) == Done {
			t.Fatal(err)
		}
	}
	// One success, one rejection (an answer: a success for health), then
	// failures; an open breaker or a full bulkhead would not count.
	for range 5 {
		issue()
		if got := names(fl.plan(ctx, route, providerclient.LaneCreate)); !slices.Equal(got, []string{"a", "b"}) {
			t.Fatalf("after %d calls: plan %v, want a still first", a.count("create"), got)
		}
	}
	ma.record(ctx, errOpen)
	ma.record(ctx, errFull)
	issue() // 2 successes of 6: below one half
	if got := names(fl.plan(ctx, route, providerclient.LaneCreate)); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("after 6 calls, 2 good: plan %v, want a eliminated (last)", got)
	}
	if out, due := ma.isEliminated(); !out || due {
		t.Fatalf("eliminated %v, probe due %v; want out and no probe before the interval", out, due)
	}
	clk.add(time.Minute)
	if out, due := ma.isEliminated(); !out || !due {
		t.Fatalf("eliminated %v, probe due %v; want a probe due", out, due)
	}
	if _, due := ma.isEliminated(); due {
		t.Fatal("a second caller was given the same probe")
	}
	ma.probe(ctx) // refused: stays out
	if got := names(fl.plan(ctx, route, providerclient.LaneCreate)); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("after a failed probe: plan %v, want a still out", got)
	}
	clk.add(time.Minute)
	if _, due := ma.isEliminated(); !due {
		t.Fatal("no probe due a minute after the failed one")
	}
	ma.probe(ctx) // answers: back, with a clean window
	if got := names(fl.plan(ctx, route, providerclient.LaneCreate)); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("after a good probe: plan %v, want a back first", got)
	}
	if good, bad := ma.health.win.counts(clk.Now()); good+bad != 0 {
		t.Fatalf("window after reinstatement holds %d/%d calls, want none", good, bad)
	}
}

// Calls older than the window no longer count.
func TestHealthWindowSlides(t *testing.T) {
	clk := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	w := window{span: time.Second}
	w.add(clk.Now(), false)
	clk.add(5 * time.Second)
	w.add(clk.Now(), true)
	if good, bad := w.counts(clk.Now()); good != 1 || bad != 1 {
		t.Fatalf("counts = %d/%d, want 1/1", good, bad)
	}
	clk.add(6 * time.Second)
	if good, bad := w.counts(clk.Now()); good != 1 || bad != 0 {
		t.Fatalf("after the failure left the window: %d/%d, want 1/0", good, bad)
	}
	clk.add(10 * time.Second)
	if good, bad := w.counts(clk.Now()); good != 0 || bad != 0 {
		t.Fatalf("after everything left: %d/%d, want 0/0", good, bad)
	}
}
