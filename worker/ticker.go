package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/pixgate/pixgate/tasks"
)

// ticker enqueues the reconcile tick of each time slot. Every worker runs
// one; the tick's TaskID is its slot, so the queue keeps one per slot and
// the reconciliation runs once per interval however many workers tick.
type ticker struct {
	every   time.Duration
	enqueue func(context.Context, tasks.Message) error
	log     *slog.Logger
}

func (tk *ticker) start(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(tk.every)
		defer t.Stop()
		for {
			if err := tk.enqueue(ctx, tasks.ReconcileTickMessage(time.Now(), tk.every)); err != nil && ctx.Err() == nil {
				tk.log.Warn("could not enqueue the reconcile tick", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}
