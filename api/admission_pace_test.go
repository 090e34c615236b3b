package api

import (
	"context"
	"testing"
	"time"
)

// From half the limit on, creates go in at the pace the workers take sends
// up, slower as the backlog nears the limit; below half nothing is paced.
// Refusing only at the limit admitted every create of a burst until the
// next read: offered 1,000 a second for a second with 150 waiting (limit
// 200), it let 50 in at once and kept refusing until the queues drained.
func TestAdmissionPacesCreatesNearTheLimit(t *testing.T) {
	clock := time.Unix(1_800_000_000, 0)
	var queued, processed, sends int64
	a := newAdmission(1000, 2*time.Second, time.Second, func(context.Context) (Backlog, error) {
		return Backlog{Queued: queued, Processed: processed, Sends: sends, Servers: 1}, nil
	}, func() time.Time { return clock })
	a.reads.Every = time.Hour // the test reads; no request does
	a.reads.Start(clock)
	for range 20 { // the workers take up 100 tasks a second, 50 of them sends
		clock = clock.Add(time.Second)
		processed += 100
		sends += 50
		a.refresh()
	}
	// offered creates every millisecond for a second with n waiting, the
	// figure read again every 200 ms, the workers keeping their pace and
	// the admitted creates sent at once
	admitted := func(n int64) int {
		got := 0
		for ms := range 1000 {
			if ms%200 == 0 {
				queued = n
				processed += 20
				sends += 10
				a.refresh()
			}
			clock = clock.Add(time.Millisecond)
			if a.check() == nil {
				got++
				a.ended()
			}
		}
		return got
	}
	if limit := a.limit.Load(); limit < 195 || limit > 200 {
		t.Fatalf("limit %d at 100 tasks a second and 2 s, want about 200", limit)
	}
	if got := admitted(40); got < 5*60 {
		t.Errorf("40 waiting (limit 200): %d of 1000 admitted, want the 60 up to half the limit in each 200 ms and more", got)
	}
	near, nearer := admitted(120), admitted(170)
	t.Logf("admitted in a second: %d at 120 waiting, %d at 170", near, nearer)
	if near < 20 || near > 60 {
		t.Errorf("120 waiting: %d admitted in a second, want about the sends' 50 a second, slowed as it nears the limit", near)
	}
	if nearer >= near || nearer < 1 {
		t.Errorf("170 waiting: %d admitted in a second, want fewer than the %d at 120 and some", nearer, near)
	}
	if got := admitted(200); got != 0 {
		t.Errorf("200 waiting (the limit): %d admitted", got)
	}
}
