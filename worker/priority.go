package worker

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/tasks"
)

// Finishing what was started before starting more. The lanes run side by
// side, each at its own concurrency, so a backlog of sends (a burst of
// withdrawals) took the worker's CPU and connections from the provider's
// notifications that settle earlier withdrawals and from the postbacks
// that end them: every lifecycle advanced and none finished, and the
// integrators saw no completion for seconds. While the later stages are
// behind (their queues hold behindBound tasks or more), sends run at most
// LaneConfig.SendsWhenBehind at once; they never stop.

// behindBound is how many tasks waiting in the events and postbacks
// queues together make the later stages behind: about a second of their
// lanes' work at a worker's peak.
const behindBound = 256

// behindRefresh is how often the figure is read while sends run.
const behindRefresh = 200 * time.Millisecond

// behind says whether the later stages are behind, from a figure read at
// most once every behindRefresh, by one goroutine started by whichever
// send finds it old; a worker that sends nothing reads nothing.
type behind struct {
	read   func(ctx context.Context) (int64, error)
	figure atomic.Int64
	reads  tasks.Refresh // paces the reads: one at a time, every behindRefresh
	slots  chan struct{} // the sends that may run while behind
}

func newBehind(rdb redis.UniversalClient, sendsWhenBehind int) *behind {
	if rdb == nil {
		return nil
	}
	return &behind{read: laterStages(rdb), reads: tasks.Refresh{Every: behindRefresh}, slots: make(chan struct{}, max(sendsWhenBehind, 1))}
}

// laterStages reads the tasks waiting in the events and postbacks queues.
func laterStages(rdb redis.UniversalClient) func(ctx context.Context) (int64, error) {
	return func(ctx context.Context) (int64, error) {
		pipe := rdb.Pipeline()
		events := pipe.LLen(ctx, tasks.PendingKey(tasks.QueueEvents))
		postbacks := pipe.LLen(ctx, tasks.PendingKey(tasks.QueuePostbacks))
		if _, err := pipe.Exec(ctx); err != nil {
			return 0, err
		}
		return events.Val() + postbacks.Val(), nil
	}
}

// isBehind reports the last figure against the bound, and starts a read
// when it is old. A failed read says nothing is behind.
func (b *behind) isBehind() bool {
	if b.reads.Start(time.Now()) {
		go func() {
			defer b.reads.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			n, err := b.read(ctx)
			if err != nil {
				n = 0
			}
			b.figure.Store(n)
		}()
	}
	return b.figure.Load() >= behindBound
}

// isSend: the task types of the sends lane.
func isSend(taskType string) bool {
	switch taskType {
	case tasks.TypeWithdrawalSend, tasks.TypeRefundSend, tasks.TypeMedReturnSend:
		return true
	}
	return false
}

// finishFirst holds a send while the later stages are behind and
// SendsWhenBehind sends already run; other tasks pass.
func (w *Worker) finishFirst(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		b := w.behind
		if b == nil || !isSend(t.Type()) || !b.isBehind() {
			return next.ProcessTask(ctx, t)
		}
		select {
		case b.slots <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-b.slots }()
		return next.ProcessTask(ctx, t)
	})
}
