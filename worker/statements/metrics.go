package statements

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/storage"
)

// Metrics are the reconciliation's Prometheus metrics.
type Metrics struct{ m *metrics }

type metrics struct {
	open *prometheus.GaugeVec
	runs *prometheus.CounterVec
}

// NewMetrics registers, on reg: pixgate_reconciliation_exceptions_open
// (provider, kind), the exceptions no operator resolved yet, read from the
// database (every worker reports the same figure: take the max, not the
// sum), and pixgate_reconciliation_runs_total (provider, result: reconciled,
// unreconciled, failed).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &metrics{
		open: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "pixgate_reconciliation_exceptions_open",
			Help: "Reconciliation exceptions not resolved yet, by provider and kind (the same figure in every worker)."}, []string{"provider", "kind"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pixgate_reconciliation_runs_total",
			Help: "Reconciliation runs of a provider's day, by provider and result."}, []string{"provider", "result"}),
	}
	reg.MustRegister(m.open, m.runs)
	return &Metrics{m}
}

func (m *metrics) ran(provider string, run storage.ReconRun, err error) {
	if m == nil {
		return
	}
	result := "failed"
	switch {
	case err != nil:
	case run.Reconciled():
		result = "reconciled"
	default:
		result = "unreconciled"
	}
	m.runs.WithLabelValues(provider, result).Inc()
}

// refreshGauges sets the open exceptions from the database; every kind of
// every provider reconciled is set, at zero when none is open.
func (r *Reconciler) refreshGauges(ctx context.Context) {
	if r.metrics == nil {
		return
	}
	open, err := r.db.OpenReconExceptions(ctx)
	if err != nil {
		r.log.Warn("could not count the open reconciliation exceptions", "err", err)
		return
	}
	for _, c := range r.providers() {
		for _, k := range storage.ReconExceptionKinds {
			r.metrics.open.WithLabelValues(c.Name(), string(k)).Set(float64(open[c.Name()][k]))
		}
	}
}
