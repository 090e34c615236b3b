package worker

import (
	"context"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/tasks"
)

// A worker's capacity is split into lanes: each queue has an asynq server
// of its own, with its own concurrency. With one server over every queue, a
// provider answering in seconds filled all its slots with sends waiting out
// their timeout, and paid charges' notifications queued behind them; with
// lanes, a slow provider fills the sends lane and no other.
//
// Every lane waits for announced tasks (wakeup.go) on a Redis view of its
// own: an idle lane makes no look at its queue until a task is announced
// or the wake-up's longest wait passes.

// LaneConfig is each lane's concurrency: how many of its tasks one worker
// process runs at once. Zero fields get their defaults.
type LaneConfig struct {
	// Events: provider notifications, which credit paid charges and settle
	// transfers (each reads the transaction back). A notification waiting
	// for its read holds no database connection, so a slot costs a
	// goroutine; a provider whose reads hang is what fills them, and it
	// holds at most half the lane (shares.go), which must cover its
	// hanging reads. Default 64.
	Events int
	// Sends: withdrawals, refunds and MED returns sent to the provider.
	// A send holds no database connection while it waits for the provider,
	// so a slot costs a goroutine; a slow provider is what fills them.
	// Default 64.
	Sends int
	// Postbacks: deliveries to integrators, which end each lifecycle. A
	// delivery waiting for the integrator holds no database connection,
	// so a slot costs a goroutine. Default 64, as wide as the lanes that
	// feed it: with 5, a burst of withdrawals left thousands of postbacks
	// waiting after their transfers had settled; with 16, offered three
	// and ten times the lifecycle's peak, the lane itself was the bound
	// (some 250 deliveries waiting throughout, completions swinging
	// between 0.35× and 1.6× the peak from one second to the next).
	Postbacks int
	// SendsWhenBehind: how many sends run at once while the events and
	// postbacks queues are behind (priority.go). Default 8.
	SendsWhenBehind int
	// Default: the reconciler's ticks. Default 2.
	Default int
}

// defaultPostbacksSlots is the postbacks lane's default width.
const defaultPostbacksSlots = 64

func (c LaneConfig) withDefaults() LaneConfig {
	if c.Events <= 0 {
		c.Events = 64
	}
	if c.Sends <= 0 {
		c.Sends = 64
	}
	if c.Postbacks <= 0 {
		c.Postbacks = defaultPostbacksSlots
	}
	if c.SendsWhenBehind <= 0 {
		c.SendsWhenBehind = 8
	}
	if c.Default <= 0 {
		c.Default = 2
	}
	return c
}

// byQueue is each queue's concurrency.
func (c LaneConfig) byQueue() map[string]int {
	return map[string]int{tasks.QueueEvents: c.Events, tasks.QueueCritical: c.Sends,
		tasks.QueuePostbacks: c.Postbacks, tasks.QueueDefault: c.Default}
}

// lane is one queue's task server.
type lane struct {
	queue  string
	server *asynq.Server
	wake   *wakeup // nil without Redis
}

// newLanes builds one lane per queue, in tasks.Queues' order.
func (w *Worker) newLanes(rdb redis.UniversalClient) []*lane {
	conc := w.cfg.Lanes.byQueue()
	lanes := make([]*lane, 0, len(tasks.Queues))
	for _, q := range tasks.Queues {
		l := &lane{queue: q}
		queues := map[string]int{q: 1}
		serverRedis := rdb
		if rdb != nil {
			l.wake = newWakeup(queues, w.cfg.WakeMaxWait, w.log.With("loop", "task-wakeup", "queue", q))
			serverRedis = hooked(rdb, l.wake)
		}
		l.server = asynq.NewServerFromRedisClient(serverRedis, asynq.Config{
			Concurrency:              conc[q],
			Queues:                   queues,
			TaskCheckInterval:        w.cfg.TaskCheckInterval,
			DelayedTaskCheckInterval: time.Second,
			IsFailure:                isFailure,
			RetryDelayFunc:           retryDelay(w.cfg.BreakerOpenTimeout),
			ErrorHandler:             asynq.ErrorHandlerFunc(w.logTaskError),
			Logger:                   asynqLogger{w.log},
			LogLevel:                 asynq.WarnLevel,
			ShutdownTimeout:          w.cfg.ShutdownTimeout,
		})
		lanes = append(lanes, l)
	}
	return lanes
}

// startLanes starts every lane's server on h; on a failure it stops those
// it started.
func (w *Worker) startLanes(h asynq.Handler) error {
	for i, l := range w.lanes {
		if err := l.server.Start(h); err != nil {
			for _, started := range w.lanes[:i] {
				started.server.Shutdown()
			}
			return err
		}
	}
	return nil
}

// listenLanes subscribes once to the announcements and wakes every lane on
// each until ctx ends, then releases the lanes' processors for good.
func (w *Worker) listenLanes(ctx context.Context, wg *sync.WaitGroup) {
	var wakes []*wakeup
	for _, l := range w.lanes {
		if l.wake != nil {
			wakes = append(wakes, l.wake)
		}
	}
	if len(wakes) == 0 {
		return
	}
	wg.Go(func() { listen(ctx, w.deps.Redis, wakes) })
}

// wakeupCheck is how long after its start a lane's wake-up must have
// recognized a dequeue: a processor dequeues at once when it starts.
const wakeupCheck = 30 * time.Second

// watchWakeups tells, wakeupCheck after the start, of every lane whose
// wake-up recognized no dequeue of its queue: an asynq whose dequeue the
// hook does not know (an upgrade) turns the waiting off and the lane
// polls every TaskCheckInterval, which costs CPU and nothing else; the
// error says so rather than leave it unnoticed.
func (w *Worker) watchWakeups(ctx context.Context, wg *sync.WaitGroup) {
	wg.Go(func() {
		t := time.NewTimer(wakeupCheck)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.checkWakeups()
	})
}

// checkWakeups logs an error for each lane whose wake-up recognized no
// dequeue, and says whether every one did.
func (w *Worker) checkWakeups() bool {
	ok := true
	for _, l := range w.lanes {
		if l.wake != nil && l.wake.recognized.Load() == 0 {
			ok = false
			w.log.Error("the task wake-up recognized no dequeue of its queue: this asynq's dequeue script is not the one worker/wakeup.go knows, and the lane polls instead of waiting",
				"queue", l.queue)
		}
	}
	return ok
}

// shutdownLanes stops the lanes together: each gives its running tasks
// ShutdownTimeout to finish.
func (w *Worker) shutdownLanes() {
	var wg sync.WaitGroup
	for _, l := range w.lanes {
		wg.Go(l.server.Shutdown)
	}
	wg.Wait()
}
