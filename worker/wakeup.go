package worker

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/tasks"
)

// An asynq processor polls: when every queue came back empty it sleeps
// TaskCheckInterval and looks again, four Lua scripts per look with four
// queues. At 5 ms that kept an idle worker at 7% of a core and its Redis at
// 2.5%, and a worker at a moderate rate polled between tasks all the same.
//
// wakeup turns the polling into waiting. It watches, through a hook on the
// Redis client the asynq server uses, the processor's dequeue script
// (asynq's rdb.Dequeue: four keys, pending, paused, active and lease of one
// queue). Once a whole round of the server's queues came back empty, the
// processor's next dequeue waits until a task is announced on
// tasks.WakeChannel for one of its queues (every tasks.Queue announces the
// queues it enqueued to, so a task wakes the lane of its queue and no
// other), or
// maxWait passes (for what nobody announces: retries and scheduled tasks
// that asynq's forwarder moves into the queues, tasks enqueued by other
// tools), or the worker stops. A busy worker never waits: it only waits
// after a round found nothing.
type wakeup struct {
	queues  map[string]bool // the server's queues
	maxWait time.Duration
	log     *slog.Logger

	mu    sync.Mutex
	empty map[string]bool // queues found empty since a task was last found
	idle  bool            // a whole round found nothing: the next dequeue waits

	wake chan struct{} // an announcement arrived (buffered: one is kept)
	stop chan struct{} // closed when the worker stops
	once sync.Once
	// recognized counts the dequeues the hook recognized: none a while
	// after the start means this asynq's dequeue is not the one the hook
	// knows, and the lane polls (watchWakeups).
	recognized atomic.Int64
	// waits and looked are told of each wait and each recognized dequeue,
	// for tests.
	waits  chan struct{}
	looked func()
}

func newWakeup(queues map[string]int, maxWait time.Duration, log *slog.Logger) *wakeup {
	w := &wakeup{queues: map[string]bool{}, maxWait: maxWait, log: log, empty: map[string]bool{},
		wake: make(chan struct{}, 1), stop: make(chan struct{})}
	for q := range queues {
		w.queues[q] = true
	}
	return w
}

func (w *wakeup) DialHook(next redis.DialHook) redis.DialHook { return next }

func (w *wakeup) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook lets every command through but the server's dequeues, which
// wait when the round before found every queue empty.
func (w *wakeup) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		q, ok := dequeueOf(cmd)
		if !ok || !w.queues[q] {
			return next(ctx, cmd)
		}
		w.recognized.Add(1)
		w.waitIfIdle()
		if w.looked != nil {
			w.looked()
		}
		err := next(ctx, cmd)
		w.dequeued(q, errors.Is(err, redis.Nil))
		return err
	}
}

// dequeueOf recognizes asynq's dequeue script by its keys and returns its
// queue.
func dequeueOf(cmd redis.Cmder) (string, bool) {
	if name := cmd.Name(); name != "evalsha" && name != "eval" {
		return "", false
	}
	args := cmd.Args()
	if len(args) < 7 {
		return "", false
	}
	if n, ok := args[2].(int); !ok || n != 4 {
		return "", false
	}
	pending, _ := args[3].(string)
	q, ok := strings.CutPrefix(pending, "asynq:{")
	if !ok {
		return "", false
	}
	q, ok = strings.CutSuffix(q, "}:pending")
	if !ok {
		return "", false
	}
	prefix := "asynq:{" + q + "}:"
	for i, suffix := range []string{"paused", "active", "lease"} {
		if k, _ := args[4+i].(string); k != prefix+suffix {
			return "", false
		}
	}
	return q, true
}

// dequeued notes what a dequeue of queue q found.
func (w *wakeup) dequeued(q string, none bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !none {
		clear(w.empty)
		return
	}
	w.empty[q] = true
	if len(w.empty) == len(w.queues) {
		clear(w.empty)
		w.idle = true
	}
}

// waitIfIdle waits, when the last round found nothing, for an announcement,
// maxWait or the worker's stop.
func (w *wakeup) waitIfIdle() {
	w.mu.Lock()
	idle := w.idle
	w.idle = false
	w.mu.Unlock()
	if !idle {
		return
	}
	if w.waits != nil {
		select {
		case w.waits <- struct{}{}:
		default:
		}
	}
	t := time.NewTimer(w.maxWait)
	defer t.Stop()
	select {
	case <-w.wake:
	case <-t.C:
	case <-w.stop:
	}
}

// poke wakes the processor, or the next wait of it, without blocking.
func (w *wakeup) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// listen pokes, on each announcement, those of wakes that serve a queue it
// names (all of them when it names none) until ctx ends, then releases
// their processors for good (they must not wait while the servers shut
// down).
func listen(ctx context.Context, r redis.UniversalClient, wakes []*wakeup) {
	defer func() {
		for _, w := range wakes {
			w.once.Do(func() { close(w.stop) })
		}
	}()
	sub := r.Subscribe(ctx, tasks.WakeChannel)
	defer sub.Close()
	// poke wakes those serving a queue of names; nil names every queue.
	poke := func(names []string) {
		for _, w := range wakes {
			if names == nil || slices.ContainsFunc(names, func(q string) bool { return w.queues[q] }) {
				w.poke()
			}
		}
	}
	// A worker that just subscribed may have missed announcements.
	poke(nil)
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return
		case msg, ok := <-ch:
			if !ok {
				return
			}
			poke(tasks.WakeQueues(msg.Payload))
		}
	}
}

// hooked is r with the wakeup hook, for the asynq server alone: a
// *redis.Client gets a view of its own (sharing its connections), so the
// process's other users of r, and another worker's server, see no hook.
func hooked(r redis.UniversalClient, w *wakeup) redis.UniversalClient {
	if c, ok := r.(*redis.Client); ok {
		view := c.WithTimeout(c.Options().ReadTimeout)
		view.AddHook(w)
		return view
	}
	r.AddHook(w)
	return r
}
