package tasks

import (
	"sync/atomic"
	"time"
)

// Refresh paces the reads of a figure of the queues that a hot path
// consults (the api's admission, a worker's send narrowing): at most one
// read every Every, and never two at once, started by whichever caller
// finds the last one old. The zero value with Every set is ready.
type Refresh struct {
	Every   time.Duration
	askedAt atomic.Int64 // unix ns when the last read started
	running atomic.Bool
}

// Start reports whether the caller should read now (at now): the last read
// began Every or more ago and none is running. The caller that is told so
// reads, then calls Done.
func (r *Refresh) Start(now time.Time) bool {
	n := now.UnixNano()
	if n-r.askedAt.Load() < int64(r.Every) || !r.running.CompareAndSwap(false, true) {
		return false
	}
	r.askedAt.Store(n)
	return true
}

// Done ends the read Start allowed.
func (r *Refresh) Done() { r.running.Store(false) }
