package worker

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// relayBatch is how many outbox rows one relay transaction claims.
const relayBatch = 100

// enqueuer is the part of asynq.Client the relay uses.
type enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// relay is the outbox's safety net. Every outbox row is queued right after
// the commit that wrote it and deleted by its task's handler; the relay
// queues, every interval, the rows still there after delay: those whose
// hand-off was lost (the process died between its commit and the enqueue,
// Redis was down) and those whose task has not finished yet (the queue
// then refuses the duplicate id, and the row is marked sent). Relays in
// many processes share the work: rows are claimed with FOR UPDATE SKIP
// LOCKED.
type relay struct {
	store    outboxStore
	enqueuer enqueuer
	log      *slog.Logger
	interval time.Duration
	delay    time.Duration
	lag      func(time.Duration) // reports the relay's lag once per interval
}

func (r *relay) start(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		timer := time.NewTicker(r.interval)
		defer timer.Stop()
		for {
			r.drain(ctx)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
				r.reportLag(ctx)
			}
		}
	}()
}

// drain relays until no row is due or a round fails.
func (r *relay) drain(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := r.store.RelayOutbox(ctx, r.delay, relayBatch, r.enqueue)
		if err != nil {
			if ctx.Err() == nil {
				r.log.Warn("outbox relay round failed", "err", err)
			}
			return
		}
		if n < relayBatch {
			return
		}
	}
}

// enqueue hands one row to the queue. A task id the queue already holds
// means an earlier round enqueued it: that is success.
func (r *relay) enqueue(ctx context.Context, p storage.PendingOutbox) error {
	task, err := tasks.NewTask(p.Type, p.ID, p.Payload)
	if err != nil {
		return err
	}
	_, err = r.enqueuer.EnqueueContext(ctx, task)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	return err
}

func (r *relay) reportLag(ctx context.Context) {
	if r.lag == nil || ctx.Err() != nil {
		return
	}
	if lag, err := r.store.OutboxLag(ctx, r.delay); err == nil {
		r.lag(lag)
	}
}
