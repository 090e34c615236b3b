package tasks

import (
	"testing"
	"time"
)

// One read at a time, and none sooner than Every after the last began.
func TestRefreshPacesReads(t *testing.T) {
	r := Refresh{Every: 200 * time.Millisecond}
	t0 := time.Unix(1000, 0)
	if !r.Start(t0) {
		t.Fatal("the first read was not started")
	}
	if r.Start(t0.Add(time.Second)) {
		t.Fatal("a second read started while the first ran")
	}
	r.Done()
	if r.Start(t0.Add(100 * time.Millisecond)) {
		t.Fatal("a read started 100 ms after the last")
	}
	if !r.Start(t0.Add(200 * time.Millisecond)) {
		t.Fatal("a read was not started once the last was old")
	}
}
