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

// relayGather is how long a woken relay waits before it claims rows.
const relayGather = 2 * time.Millisecond

// enqueuer is the part of asynq.Client the relay uses.
type enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// relay moves outbox rows into the queue. It wakes when a transaction that
// wrote outbox rows commits (LISTEN/NOTIFY) and polls every interval besides,
// so nothing waits on a lost notification. Relays in many processes share
// the work: rows are claimed with FOR UPDATE SKIP LOCKED.
type relay struct {
	db       *storage.DB
	enqueuer enqueuer
	log      *slog.Logger
	interval time.Duration
	lag      func(time.Duration) // reports the outbox lag once per interval
}

func (r *relay) start(ctx context.Context, wg *sync.WaitGroup) {
	wake := r.db.ListenOutbox(ctx)
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
			case <-wake:
				// Commits arrive one after another under load: a moment's
				// wait lets one relay round carry several of them.
				select {
				case <-ctx.Done():
				case <-time.After(relayGather):
				}
			case <-timer.C:
				// The lag gauge is refreshed on the tick, not on every
				// wake: under load the relay wakes once per commit.
				r.reportLag(ctx)
			}
		}
	}()
}

// drain relays until the outbox is empty or a round fails.
func (r *relay) drain(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := r.db.RelayOutbox(ctx, relayBatch, r.enqueue)
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
	if lag, err := r.db.OutboxLag(ctx); err == nil {
		r.lag(lag)
	}
}
