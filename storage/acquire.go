package storage

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultAcquireTimeout is how long a call waits for one of the pool's
// connections when Config.AcquireTimeout is zero. Taking a free one takes
// microseconds and a busy pool frees one within milliseconds: a wait this
// long means every connection is held by work that is not finishing.
const DefaultAcquireTimeout = 5 * time.Second

// acquireDeadline bounds every wait for a pooled connection (pgxpool's
// Acquire, and so every Query, Exec, SendBatch and Begin on the pool): the
// context pgxpool waits on is the one TraceAcquireStart returns (see
// pgxpool.AcquireTracer). A caller that cannot get a connection in time
// gets context.DeadlineExceeded, which Unavailable reports, instead of
// waiting forever on a context that has no deadline of its own (an HTTP
// request's). Only the wait is bounded: the statements run on the caller's
// context.
type acquireDeadline struct {
	timeout time.Duration
	// lastAcquired is when a wait last ended with a connection (Unix
	// nanoseconds): how the pool watch tells a busy pool from a stuck one.
	lastAcquired atomic.Int64
}

type acquireCancelKey struct{}

// noAcquireDeadlineKey marks a context whose acquire is bounded by the
// caller alone: Open's first check, which dials the pool's first
// connection on a context with a deadline of its own. A dial is not a
// wait for a busy pool, and on a loaded machine it can take longer than
// a short acquire timeout.
type noAcquireDeadlineKey struct{}

func withoutAcquireDeadline(ctx context.Context) context.Context {
	return context.WithValue(ctx, noAcquireDeadlineKey{}, true)
}

func (a *acquireDeadline) TraceAcquireStart(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	if ctx.Value(noAcquireDeadlineKey{}) != nil {
		return ctx
	}
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	return context.WithValue(ctx, acquireCancelKey{}, cancel)
}

func (a *acquireDeadline) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, data pgxpool.TraceAcquireEndData) {
	if data.Err == nil {
		a.lastAcquired.Store(time.Now().UnixNano())
	}
	if cancel, ok := ctx.Value(acquireCancelKey{}).(context.CancelFunc); ok {
		cancel()
	}
}
