package load

import (
	"strings"
	"testing"
	"time"
)

// The longest stretch without a completion counts only while an accepted
// lifecycle is pending: from the window's start or the last completion,
// whichever is later, and from an acceptance into an empty system.
func TestLongestStall(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	ts := func(xs ...float64) []time.Time {
		var out []time.Time
		for _, x := range xs {
			out = append(out, at(x))
		}
		return out
	}
	for _, tt := range []struct {
		name                string
		accepted, completed []time.Time
		want                time.Duration
	}{
		{"nothing", nil, nil, 0},
		{"idle gaps do not count", ts(1, 10), ts(1.5, 10.2), 500 * time.Millisecond},
		{"pending through a gap", ts(1, 2), ts(1.5, 6), 4 * time.Second},
		{"never completed: to the end", ts(3), nil, 17 * time.Second},
	} {
		if got := longestStall(tt.accepted, tt.completed, t0, at(20)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A closed-loop window counts its completions second by second, each in
// the second it arrived; a last second cut short is left out.
func TestCollectorCountsEachSecond(t *testing.T) {
	var c collector
	c.start = time.Now().Add(-2500 * time.Millisecond) // in the window's third second
	c.recording.Store(true)
	c.record(time.Millisecond, true, "")
	c.record(time.Millisecond, true, "")
	c.record(time.Millisecond, false, "refused")
	c.start = c.start.Add(2 * time.Second) // now in its first
	c.record(time.Millisecond, true, "")
	r := c.done(3 * time.Second)
	if r.Ops != 3 || len(r.PerSecond) != 3 || r.PerSecond[0] != 1 || r.PerSecond[1] != 0 || r.PerSecond[2] != 2 {
		t.Fatalf("ops %d, per second %v; want 3 and [1 0 2]", r.Ops, r.PerSecond)
	}
	if r = c.done(2 * time.Second); len(r.PerSecond) != 2 {
		t.Fatalf("a window of 2 s counted %v", r.PerSecond)
	}
	// Recording that did not begin by begin counts its operations, and no
	// second: counted from the zero time, one would be billions of seconds.
	var bare collector
	bare.recording.Store(true)
	bare.record(time.Millisecond, true, "")
	if r := bare.done(time.Second); r.Ops != 1 || len(r.PerSecond) != 0 {
		t.Fatalf("ops %d, per second %d long", r.Ops, len(r.PerSecond))
	}
	// begin counts from now.
	var begun collector
	begun.begin()
	begun.record(time.Millisecond, true, "")
	if r := begun.done(time.Second); len(r.PerSecond) != 1 || r.PerSecond[0] != 1 {
		t.Fatalf("begun: per second %v", r.PerSecond)
	}
}

// The overload's steadiness goal names the peak's own lowest second
// beside the window's, both as × the peak's mean.
func TestOverloadGoalShowsThePeaksOwnSeconds(t *testing.T) {
	o := overloadRun{Mult: 3, Peak: 100, PeakPerSec: []int{80, 100, 120, 100},
		CompletedPerSec: []int{10, 50, 90, 95, 85, 110}}
	rep := &report{Overload: []overloadRun{o}}
	var figures []string
	rep.overloadGoals(func(goal string, ok bool, figure string, measured bool) {
		if strings.Contains(goal, "every second") && measured {
			figures = append(figures, figure)
		}
	}, nil)
	if len(figures) == 0 || figures[0] != "lowest second 0.85× (the peak's own lowest second 0.80×)" {
		t.Fatalf("figures %q", figures)
	}
}
