package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// RetentionConfig says how long finished bookkeeping is kept. Without it
// nothing ever shrinks: every notification leaves a provider_events row and
// an outbox row for good.
type RetentionConfig struct {
	// ProcessedEvents is how long a processed provider notification is
	// kept. Default 30 days; negative keeps them forever.
	ProcessedEvents time.Duration
	// SentOutbox is how long an outbox row is kept after its task was
	// queued. Default 30 days; negative keeps them forever.
	SentOutbox time.Duration
	// Interval between prunes. Default 1h.
	Interval time.Duration
	// Batch is how many rows one statement deletes. Default 1000.
	Batch int
	// MaxBatches bounds the statements of one prune per table, so a large
	// backlog drains over several intervals. Default 100.
	MaxBatches int
}

// Defaults of RetentionConfig.
const (
	DefaultRetention         = 30 * 24 * time.Hour
	DefaultRetentionInterval = time.Hour
)

func (c RetentionConfig) withDefaults() RetentionConfig {
	if c.ProcessedEvents == 0 {
		c.ProcessedEvents = DefaultRetention
	}
	if c.SentOutbox == 0 {
		c.SentOutbox = DefaultRetention
	}
	if c.Interval <= 0 {
		c.Interval = DefaultRetentionInterval
	}
	if c.Batch <= 0 {
		c.Batch = 1000
	}
	if c.MaxBatches <= 0 {
		c.MaxBatches = 100
	}
	return c
}

// retention prunes, every interval, in every worker process: pruners skip
// the rows another one holds, so running it everywhere costs nothing and
// needs no coordination.
type retention struct {
	store retentionStore
	cfg   RetentionConfig
	log   *slog.Logger
}

func (r *retention) start(ctx context.Context, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.cfg.Interval)
		defer t.Stop()
		for {
			r.prune(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// prune deletes what is past its retention, table by table; a failure is
// logged and the next table still pruned.
func (r *retention) prune(ctx context.Context) {
	for _, p := range []struct {
		what  string
		keep  time.Duration
		prune func(context.Context, time.Duration, int) (int64, error)
	}{
		{"processed provider events", r.cfg.ProcessedEvents, r.store.PruneProcessedEvents},
		{"sent outbox rows", r.cfg.SentOutbox, r.store.PruneSentOutbox},
	} {
		if p.keep < 0 {
			continue
		}
		var total int64
		for range r.cfg.MaxBatches {
			n, err := p.prune(ctx, p.keep, r.cfg.Batch)
			if err != nil {
				if ctx.Err() == nil {
					r.log.Warn("retention: prune failed", "what", p.what, "err", err)
				}
				break
			}
			total += n
			if n < int64(r.cfg.Batch) {
				break
			}
		}
		if total > 0 {
			r.log.Info("retention: pruned", "what", p.what, "rows", total, "older_than", p.keep.String())
		}
	}
}
