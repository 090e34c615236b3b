package api

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/tasks"
)

// Admission of new cash-out work. Offered more withdrawals than the
// workers send and settle, PixGate used to accept them all: the queues
// grew without bound, every accepted create's CPU and commits were taken
// from the workers, and completions stopped for seconds at a time. Now,
// while the tasks waiting in the sends and events queues (work accepted
// and not yet taken up by a worker) are at or above a bound, new
// withdrawals and refunds, on both surfaces, are refused with 503 and
// Retry-After, before anything is read or written. Charges are never
// refused for it (cash-in does not add to the cash-out backlog, and a payer
// is waiting at a checkout), nor are the provider's notifications (money
// arriving).
//
// The check costs a load of two atomics: the figure is read from Redis
// (the queues' lengths, one pipelined round trip) at most once every
// admissionRefresh, by one goroutine started by whichever request finds it
// old (the process's first figure is read in its first such request), and
// shared by every request of the process. An idle API reads nothing.

// DefaultAdmissionBacklog is the default bound: about two seconds of one
// worker's peak (some 250 lifecycles a second, two tasks each: the send
// and the provider's notification).
const DefaultAdmissionBacklog = 1000

// DefaultAdmissionRetryAfter is the default Retry-After of a refusal.
const DefaultAdmissionRetryAfter = time.Second

// admissionRefresh is how often the figure is read while requests come.
const admissionRefresh = 200 * time.Millisecond

// admissionStale is how old a figure may be and still refuse: a figure
// read before a pause says nothing of the queues now.
const admissionStale = 5 * admissionRefresh

// BacklogFunc reads the tasks waiting to be taken up by a worker.
type BacklogFunc func(ctx context.Context) (int64, error)

// admission holds the process's figure of the backlog.
type admission struct {
	bound      int64
	retryAfter time.Duration
	read       BacklogFunc
	now        func() time.Time

	figure     atomic.Int64
	readAt     atomic.Int64 // unix ns when figure was read; 0 never
	askedAt    atomic.Int64 // unix ns when the last read started
	refreshing atomic.Bool
}

// newAdmission returns nil (admit everything) when the bound is negative
// or there is nothing to read the backlog from.
func newAdmission(bound int64, retryAfter time.Duration, read BacklogFunc, now func() time.Time) *admission {
	if bound < 0 || read == nil {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	return &admission{bound: bound, retryAfter: retryAfter, read: read, now: now}
}

// queuedTasks reads the backlog from the asynq queues' pending lists.
func queuedTasks(rdb redis.UniversalClient) BacklogFunc {
	return func(ctx context.Context) (int64, error) {
		pipe := rdb.Pipeline()
		cmds := []*redis.IntCmd{
			pipe.LLen(ctx, pendingKey(tasks.QueueCritical)),
			pipe.LLen(ctx, pendingKey(tasks.QueueEvents)),
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, err
		}
		var n int64
		for _, c := range cmds {
			n += c.Val()
		}
		return n, nil
	}
}

// pendingKey is asynq's list of a queue's tasks ready to run.
func pendingKey(queue string) string { return "asynq:{" + queue + "}:pending" }

// errBacklogFull is the refusal: nothing was read or written.
func (a *admission) errBacklogFull() *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, Code: codeOverloaded, RetryAfter: a.retryAfter,
		Message: "PixGate has more payments queued than it sends in the next few seconds; nothing was done. Retry after Retry-After (with the same external_id)."}
}

// check refuses when the last fresh figure is at or above the bound, and
// starts a read of the figure when it is old.
func (a *admission) check() *apiError {
	if a == nil {
		return nil
	}
	now := a.now().UnixNano()
	if now-a.askedAt.Load() >= int64(admissionRefresh) && a.refreshing.CompareAndSwap(false, true) {
		a.askedAt.Store(now)
		if a.readAt.Load() == 0 {
			a.refresh() // the process's first figure: read in the request
		} else {
			go a.refresh()
		}
	}
	if now-a.readAt.Load() > int64(admissionStale) || a.figure.Load() < a.bound {
		return nil
	}
	return a.errBacklogFull()
}

// refresh reads the figure once. A failed read admits: a queue that cannot
// be read is no evidence of a backlog, and what is accepted is in Postgres.
func (a *admission) refresh() {
	defer a.refreshing.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	n, err := a.read(ctx)
	if err != nil {
		n = 0
	}
	a.figure.Store(n)
	a.readAt.Store(a.now().UnixNano())
}

// admitCashOut is the middleware of the routes that create withdrawals
// and refunds: it runs before authentication, so a refusal costs no
// lookup and spends none of the key's rate limit.
func (s *Server) admitCashOut(c *fiber.Ctx) error {
	if err := s.admission.check(); err != nil {
		return err
	}
	return c.Next()
}
