package chaos

import (
	"strings"
	"testing"
	"time"
)

// The isolation check compares the other integrators' postback lags while
// an endpoint hangs with theirs before it, and leaves the hanging
// integrator's own out of it.
func TestPostbackIsolation(t *testing.T) {
	t0 := time.Now()
	sr := scenarioRun{scenario: hangScenario, start: t0, injected: t0.Add(10 * time.Second), recovered: t0.Add(40 * time.Second)}
	lag := func(integrator int, final time.Duration, lag time.Duration) verdict {
		return verdict{scenario: 1, integrator: integrator, finalAt: t0.Add(final), postbackLag: lag}
	}
	base := []verdict{
		lag(1, 2*time.Second, 40*time.Millisecond), lag(2, 3*time.Second, 60*time.Millisecond),
		lag(hungIntegrator, 20*time.Second, 30*time.Second), // held by the hang: not the others'
		lag(1, 70*time.Second, 9*time.Second),               // after the fault: not compared
	}
	var notes []string
	if p := postbackIsolation(1, sr, append(base, lag(1, 15*time.Second, 80*time.Millisecond)), &notes); p != nil {
		t.Fatalf("as prompt as before: %v", p)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "before the hang 2 (p50 40 ms, p99 60 ms") || !strings.Contains(notes[0], "during it: 1 (p50 30 s") {
		t.Fatalf("notes: %v", notes)
	}
	p := postbackIsolation(1, sr, append(base, lag(2, 15*time.Second, 2*time.Second)), &notes)
	if len(p) != 1 || !strings.Contains(p[0], "p99 2.0 s, before 60 ms (allowed 560 ms)") {
		t.Fatalf("slower while it hung: %v", p)
	}
	if p := postbackIsolation(1, sr, base[:2], &notes); len(p) != 1 || !strings.Contains(p[0], "too few") {
		t.Fatalf("nothing during it: %v", p)
	}
	if p := postbackIsolation(1, scenarioRun{}, base, &notes); p != nil {
		t.Fatalf("another scenario: %v", p)
	}
}
