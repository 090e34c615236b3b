package main

import (
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
