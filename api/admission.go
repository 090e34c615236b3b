package api

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/pixgate/pixgate/tasks"
)

// Admission of new cash-out work. Offered more withdrawals than the
// workers send and settle, PixGate used to accept them all: the queues
// grew without bound, every accepted create's CPU and commits were taken
// from the workers, and completions stopped for seconds at a time. Now,
// while the tasks waiting in the sends and events queues (work accepted
// and not yet taken up by a worker) would take the workers longer than a
// target time to take up, at the rate they took them lately, or number a
// bound or more, new withdrawals and refunds, on both surfaces, are
// refused with 503 and Retry-After, before anything is read or written. Charges are never
// refused for it (cash-in does not add to the cash-out backlog, and a payer
// is waiting at a checkout), nor are the provider's notifications (money
// arriving).
//
// The check costs a few atomic loads: the figure is read from Redis
// (the queues' lengths and asynq's counts of tasks processed, one
// pipelined round trip) at most once every
// admissionRefresh, by one goroutine started by whichever request finds it
// old (the process's first figure is read in its first such request), and
// shared by every request of the process. An idle API reads nothing.

// DefaultAdmissionBacklog is the default bound on the tasks waiting,
// whatever the rate: about two seconds of one worker's peak (some 250
// lifecycles a second, two tasks each: the send and the provider's
// notification).
const DefaultAdmissionBacklog = 1000

// DefaultAdmissionQueueTime is the default target time in the queues: a
// withdrawal accepted is taken up by a worker within it.
const DefaultAdmissionQueueTime = 2 * time.Second

// admissionFloor is the fewest waiting tasks that may refuse for their
// time in the queue: a handful waiting while the workers are idle (their
// rate unknown) is no backlog.
const admissionFloor = 64

// DefaultAdmissionRetryAfter is the default Retry-After of a refusal.
const DefaultAdmissionRetryAfter = time.Second

// admissionRefresh is how often the figure is read while requests come.
const admissionRefresh = 200 * time.Millisecond

// admissionStale is how old a figure may be and still refuse: a figure
// read before a pause says nothing of the queues now.
const admissionStale = 5 * admissionRefresh

// Backlog is what admission reads: the tasks waiting to be taken up by a
// worker, a count of the tasks taken up so far (which only grows), and the
// task servers alive (worker lanes).
type Backlog struct {
	Queued, Processed, Servers int64
	// Sends counts the sends taken up so far (which only grows).
	Sends int64
}

// BacklogFunc reads the backlog.
type BacklogFunc func(ctx context.Context) (Backlog, error)

// admission holds the process's figure of the backlog.
type admission struct {
	bound      int64
	queueTime  time.Duration
	retryAfter time.Duration
	read       BacklogFunc
	now        func() time.Time

	figure atomic.Int64 // tasks waiting
	// since counts the creates this process admitted after figure was
	// read: they reach the queues only after their commit, so at the
	// start of a burst the figure alone would lag what was accepted.
	since atomic.Int64
	// inflight counts the creates this process admitted whose request
	// has not ended: until their commit and its hand-off to the queues
	// the queues do not show them, and a read that forgot them (since
	// starts again at every read) let a burst in twice over.
	inflight  atomic.Int64
	limit     atomic.Int64  // what the workers take up in queueTime (or bound)
	readAt    atomic.Int64  // unix ns when figure was read; 0 never
	sendsRate atomic.Uint64 // float64 bits: sends taken up per second, smoothed
	pace      *rate.Limiter // admission_pace.go; nil without a target time
	// Only the refreshing goroutine touches these.
	taken  counterRate   // tasks taken up (Backlog.Processed)
	sent   counterRate   // sends taken up (Backlog.Sends)
	lastAt time.Time     // when they were last read
	reads  tasks.Refresh // paces the reads: one at a time, every admissionRefresh
}

// newAdmission returns nil (admit everything) when the bound is negative
// or there is nothing to read the backlog from.
func newAdmission(bound int64, queueTime, retryAfter time.Duration, read BacklogFunc, now func() time.Time) *admission {
	if bound < 0 || read == nil {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	return &admission{bound: bound, queueTime: queueTime, retryAfter: retryAfter, read: read, now: now,
		reads: tasks.Refresh{Every: admissionRefresh}, pace: newPace(queueTime)}
}

// queuedTasks reads the backlog from the asynq queues' pending lists, and
// asynq's counters of the tasks they have processed.
func queuedTasks(rdb redis.UniversalClient) BacklogFunc {
	return func(ctx context.Context) (Backlog, error) {
		pipe := rdb.Pipeline()
		// asynq's servers announce themselves with their expiry as score.
		servers := pipe.ZCount(ctx, "asynq:servers", strconv.FormatInt(time.Now().Unix(), 10), "+inf")
		var pending []*redis.IntCmd
		var processed []*redis.StringCmd
		queues := []string{tasks.QueueCritical, tasks.QueueEvents}
		for _, q := range queues {
			pending = append(pending, pipe.LLen(ctx, tasks.PendingKey(q)))
			processed = append(processed, pipe.Get(ctx, tasks.ProcessedKey(q)))
		}
		if _, err := pipe.Exec(ctx); err != nil && err != redis.Nil {
			return Backlog{}, err
		}
		b := Backlog{Servers: servers.Val()}
		for i, q := range queues {
			b.Queued += pending[i].Val()
			n, _ := processed[i].Int64() // none yet: 0
			b.Processed += n
			if q == tasks.QueueCritical {
				b.Sends = n
			}
		}
		return b, nil
	}
}

// errBacklogFull is the refusal: nothing was read or written.
func (a *admission) errBacklogFull() *apiError {
	return &apiError{Status: http.StatusServiceUnavailable, Code: codeOverloaded, RetryAfter: a.retryAfter,
		Message: "PixGate has more payments queued than it sends in the next few seconds; nothing was done. Retry after Retry-After (with the same external_id)."}
}

// check refuses when the last fresh figure is at or above the bound, or
// over half of it and out of pace (admission_pace.go), and starts a read
// of the figure when it is old.
func (a *admission) check() *apiError {
	if a == nil {
		return nil
	}
	at := a.now()
	now := at.UnixNano()
	if a.reads.Start(at) {
		if a.readAt.Load() == 0 {
			a.refresh() // the process's first figure: read in the request
		} else {
			go a.refresh()
		}
	}
	b, limit := a.figure.Load()+a.since.Load(), a.limit.Load()
	if now-a.readAt.Load() > int64(admissionStale) || (b < limit && a.paced(at, b, limit)) {
		a.since.Add(1)
		a.inflight.Add(1)
		return nil
	}
	return a.errBacklogFull()
}

// refresh reads the figure once. A failed read admits: a queue that cannot
// be read is no evidence of a backlog, and what is accepted is in Postgres.
// So does a figure with no worker alive (all stopped, or none started).
func (a *admission) refresh() {
	defer a.reads.Done()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	inflight := a.inflight.Load() // first: one that ends during the read counts twice, not never
	b, err := a.read(ctx)
	at := a.now()
	if err == nil {
		a.learnRates(b, at)
	}
	limit := a.limitNow()
	if err != nil || b.Servers == 0 {
		// No figure, or no worker to make way for: what is accepted waits
		// in Postgres and the queues, and refusing would finish nothing
		// sooner.
		b.Queued, inflight, limit = 0, 0, math.MaxInt64
	}
	a.figure.Store(b.Queued + inflight)
	a.since.Store(0)
	a.limit.Store(limit)
	a.readAt.Store(at.UnixNano())
}

// counterRate is how fast a counter that only grows has grown lately: an
// average weighted to the last second or so.
type counterRate struct {
	last      int64
	perSecond float64
}

// fold takes the counter's new value, dt seconds after the last (none
// the first time). A counter gone back (its key lost) only restarts.
func (c *counterRate) fold(count int64, dt float64) {
	if dt > 0 && count >= c.last {
		const weight = 0.3
		c.perSecond = (1-weight)*c.perSecond + weight*float64(count-c.last)/dt
	}
	c.last = count
}

// learnRates folds the tasks and the sends taken up since the last read
// into their rates, and the sends' into the pace (admission_pace.go).
func (a *admission) learnRates(b Backlog, at time.Time) {
	var dt float64
	if !a.lastAt.IsZero() {
		dt = at.Sub(a.lastAt).Seconds()
	}
	a.taken.fold(b.Processed, dt)
	a.sent.fold(b.Sends, dt)
	a.lastAt = at
	a.setSendsRate(a.sent.perSecond, at)
}

// limitNow is the backlog that refuses: what the workers take up in
// queueTime at their rate, at least admissionFloor, at most bound.
func (a *admission) limitNow() int64 {
	if a.queueTime <= 0 {
		return a.bound
	}
	byTime := int64(a.taken.perSecond * a.queueTime.Seconds())
	return min(a.bound, max(byTime, admissionFloor))
}

// admitCashOut is the middleware of the routes that create withdrawals
// and refunds: it runs before authentication, so a refusal costs no
// lookup and spends none of the key's rate limit.
func (s *Server) admitCashOut(c *fiber.Ctx) error {
	if err := s.admission.check(); err != nil {
		return err
	}
	defer s.admission.ended()
	return c.Next()
}

// ended notes the end of an admitted create's request.
func (a *admission) ended() {
	if a != nil {
		a.inflight.Add(-1)
	}
}
