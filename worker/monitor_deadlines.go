package worker

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/storage"
)

// DeadlineStore is what the payout deadline gauges read: *storage.DB.
type DeadlineStore interface {
	PayoutDeadlineCounts(ctx context.Context, now time.Time) (map[int64]storage.DeadlineCounts, error)
}

// DeadlineGauges are the payout deadline figures of deploy/grafana and
// deploy/prometheus (docs/operations.md, "Payout deadlines (betting
// operators)"): by integrator id, the withdrawals in flight near their
// deadline and past it. Every worker reports the same figures:
// dashboards take the max across workers.
type DeadlineGauges struct {
	near, late *prometheus.GaugeVec
}

// NewDeadlineGauges registers the gauges on reg.
func NewDeadlineGauges(reg prometheus.Registerer) *DeadlineGauges {
	i := []string{"integrator"}
	g := &DeadlineGauges{
		near: gaugeVec("pixgate_payouts_near_deadline",
			"Withdrawals still PROCESSING near their payout deadline (the last fifth of their time to due_at, or the last 15 minutes), by integrator id.", i),
		late: gaugeVec("pixgate_payouts_late", "Withdrawals still PROCESSING past their payout deadline (due_at), by integrator id.", i),
	}
	reg.MustRegister(g.near, g.late)
	return g
}

// Run refreshes the gauges every interval until ctx ends; a failed read
// keeps the last figures and is logged.
func (g *DeadlineGauges) Run(ctx context.Context, db DeadlineStore, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := g.refresh(ctx, db, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("could not refresh the operators' gauges", "figures", "payout deadlines", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (g *DeadlineGauges) refresh(ctx context.Context, db DeadlineStore, now time.Time) error {
	counts, err := db.PayoutDeadlineCounts(ctx, now)
	if err != nil {
		return err
	}
	// Reset first: an integrator with nothing near or late has no series.
	g.near.Reset()
	g.late.Reset()
	for id, c := range counts {
		label := strconv.FormatInt(id, 10)
		if c.Near > 0 {
			g.near.WithLabelValues(label).Set(float64(c.Near))
		}
		if c.Late > 0 {
			g.late.WithLabelValues(label).Set(float64(c.Late))
		}
	}
	return nil
}
