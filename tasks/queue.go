package tasks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// WakeChannel is the Redis channel on which every Queue announces the
// tasks it enqueues: workers wait on it instead of polling their queues
// (worker/wakeup.go). A message names the queues that got tasks, separated
// by commas (WakeQueues reads it); an empty message names every queue.
const WakeChannel = "pixgate:tasks:wake"

// WakeQueues returns the queues an announcement names, nil for every
// queue.
func WakeQueues(msg string) []string {
	if msg == "" {
		return nil
	}
	return strings.Split(msg, ",")
}

// announceTimeout bounds one announcement.
const announceTimeout = time.Second

// Queue puts messages on the task queue and announces them on
// WakeChannel. It is safe for concurrent use; Close stops its announcer.
type Queue struct {
	client *asynq.Client
	rdb    redis.UniversalClient
	pokes  chan struct{} // an announcement is due
	mu     sync.Mutex
	due    map[string]bool // the queues it names
	stop   context.CancelFunc
	done   sync.WaitGroup
}

// NewQueue is a Queue on r, announcing until Close; closing r is its
// owner's business.
func NewQueue(r redis.UniversalClient) *Queue {
	// The announcer outlives any one caller's context: it serves them all.
	ctx, stop := context.WithCancel(context.Background())
	q := &Queue{client: asynq.NewClientFromRedisClient(r), rdb: r, pokes: make(chan struct{}, 1), due: map[string]bool{}, stop: stop}
	q.done.Go(func() { q.announce(ctx) })
	return q
}

// Enqueue queues m as a task. A task id the queue holds already means it
// was queued before (its outbox row is both queued right after its commit
// and, when still there later, by the relay): that is success.
func (q *Queue) Enqueue(ctx context.Context, m Message) error {
	task, err := m.Task()
	if err != nil {
		return err
	}
	_, err = q.EnqueueContext(ctx, task)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	return err
}

// EnqueueContext is asynq.Client's, and announces the task it enqueued.
func (q *Queue) EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error) {
	info, err := q.client.EnqueueContext(ctx, task, opts...)
	if err == nil {
		q.mu.Lock()
		q.due[info.Queue] = true
		q.mu.Unlock()
		select {
		case q.pokes <- struct{}{}:
		default: // an announcement is pending: it covers this task too
		}
	}
	return info, err
}

// announce publishes on WakeChannel once per burst of enqueues, naming
// the queues that got tasks: enqueues that happen while one announcement
// is being sent ride on the next. Losing one only delays a waiting worker
// to its next look (a second).
func (q *Queue) announce(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.pokes:
			q.mu.Lock()
			names := make([]string, 0, len(q.due))
			for name := range q.due {
				names = append(names, name)
			}
			clear(q.due)
			q.mu.Unlock()
			slices.Sort(names)
			pctx, cancel := context.WithTimeout(ctx, announceTimeout)
			_ = q.rdb.Publish(pctx, WakeChannel, strings.Join(names, ",")).Err()
			cancel()
		}
	}
}

// Close stops the announcer; enqueues after it are not announced.
func (q *Queue) Close() {
	q.stop()
	q.done.Wait()
}
