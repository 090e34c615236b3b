package statements

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// Start runs the loop until ctx ends: every Interval, each provider that
// offers a statement has its previous CatchUp days scheduled (once,
// whichever worker asks first, each due After its end: a worker down over
// a midnight catches up), and the due days are
// claimed and run one at a time, each by one worker. A day whose run
// failed is tried again later, backing off; one that left items expected
// runs again when its grace period ends. The loop refreshes the open
// exceptions' metrics on every pass.
func (r *Reconciler) Start(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.cfg.Interval)
		defer t.Stop()
		for {
			r.tick(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// CatchUp is how many past days the loop makes sure are scheduled.
const CatchUp = 3

// maxRunsPerTick bounds how many days one pass runs, so a backlog (a new
// deployment, days of a provider that was down) drains over several.
const maxRunsPerTick = 10

func (r *Reconciler) tick(ctx context.Context) {
	today := providerclient.DayOf(r.now())
	for _, c := range r.providers() {
		if !c.Capabilities().Statement {
			continue
		}
		for back := 1; back <= CatchUp; back++ {
			day := today.AddDays(-back)
			if err := r.db.ScheduleReconciliation(ctx, c.Name(), day.String(), day.End().Add(r.cfg.After)); err != nil {
				if ctx.Err() == nil {
					r.log.Warn("could not schedule a reconciliation", "provider", c.Name(), "day", day.String(), "err", err)
				}
				return
			}
		}
	}
	for range maxRunsPerTick {
		if ctx.Err() != nil {
			return
		}
		provider, dayText, attempts, ok, err := r.db.ClaimReconciliation(ctx, r.cfg.Lease)
		if err != nil || !ok {
			if err != nil && ctx.Err() == nil {
				r.log.Warn("could not claim a reconciliation", "err", err)
			}
			break
		}
		r.runClaimed(ctx, provider, dayText, attempts)
	}
	r.refreshGauges(ctx)
}

// runClaimed runs a claimed day; one that fails is set aside, backing off
// from a minute to an hour. One bad day never stops the others.
func (r *Reconciler) runClaimed(ctx context.Context, provider, dayText string, attempts int) {
	day, err := providerclient.ParseDay(dayText)
	if err == nil {
		_, err = r.Run(ctx, provider, day, storage.TriggerWorker)
	}
	if err == nil || ctx.Err() != nil {
		return
	}
	retry := r.now().Add(min(time.Duration(1<<min(attempts, 6))*time.Minute, time.Hour))
	if errors.Is(err, ErrNoProvider) || errors.Is(err, ErrNoStatement) {
		retry = r.now().Add(24 * time.Hour)
	}
	r.log.Warn("reconciliation failed; tried again later", "provider", provider, "day", dayText, "retry_at", retry, "err", err)
	if err := r.db.ReconciliationFailed(ctx, provider, dayText, retry); err != nil && ctx.Err() == nil {
		r.log.Warn("could not set a failed reconciliation aside", "provider", provider, "day", dayText, "err", err)
	}
}
