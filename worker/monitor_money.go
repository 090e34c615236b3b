package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// OpsStore is what the operators' gauges read: *storage.DB.
type OpsStore interface {
	FloatBalances(ctx context.Context) (map[string]money.Money, error)
	LastReconCloses(ctx context.Context) (map[string]storage.ReconClose, error)
	MEDExposure(ctx context.Context) (storage.MEDExposure, error)
	OldestOpenReconExceptions(ctx context.Context) (map[string]time.Time, error)
	CreditLags(ctx context.Context, since time.Time) (map[string]storage.Lags, error)
	WithdrawalPostbackLags(ctx context.Context, since time.Time) (map[string]storage.Lags, error)
	RecentPostbacks(ctx context.Context, since time.Time) (map[string]map[string]int64, error)
}

// Windows of the lag and postback gauges: long enough to hold a few
// records at a quiet hour, short enough that an alert clears soon after
// the cause is gone.
const (
	lagWindow      = 15 * time.Minute
	postbackWindow = time.Hour
)

// OpsGauges are the figures of deploy/grafana and deploy/prometheus that
// live in Postgres (floats, MED, reconciliation, lags, postbacks per
// integrator). Every worker reports the same figures: dashboards take the
// max across workers, never the sum. Money is in centavos.
type OpsGauges struct {
	float, closing, closingDiff, unexplained *prometheus.GaugeVec
	blocked, debt, debtors                   prometheus.Gauge
	infractions, exceptionAge                *prometheus.GaugeVec
	creditLag, postbackLag                   *prometheus.GaugeVec
	postbacks                                *prometheus.GaugeVec
}

// NewOpsGauges registers the gauges on reg.
func NewOpsGauges(reg prometheus.Registerer) *OpsGauges {
	p, q := []string{"provider"}, []string{"provider", "quantile"}
	g := &OpsGauges{
		float: gaugeVec("pixgate_provider_float_centavos", "The money PixGate's ledger expects each provider to hold now (its float account).", p),
		closing: gaugeVec("pixgate_provider_reported_balance_centavos",
			"What each provider reported holding at the close of its last reconciled day (absent when its statement reports no balance).", p),
		closingDiff: gaugeVec("pixgate_provider_closing_difference_centavos",
			"The provider's closing balance less PixGate's float at the close of its last reconciled day (docs/reconciliation.md).", p),
		unexplained: gaugeVec("pixgate_provider_unexplained_centavos",
			"Money that moved at the provider on its last reconciled day and that no statement line explains.", p),
		blocked: prometheus.NewGauge(prometheus.GaugeOpts{Name: "pixgate_med_blocked_centavos",
			Help: "Money blocked under open MED infractions, across integrators."}),
		debt: prometheus.NewGauge(prometheus.GaugeOpts{Name: "pixgate_med_debt_centavos",
			Help: "What integrators owe after MED returns their balances could not cover."}),
		debtors: prometheus.NewGauge(prometheus.GaugeOpts{Name: "pixgate_med_debtors",
			Help: "Integrators with a debt."}),
		infractions: gaugeVec("pixgate_infractions_open", "Open MED infractions, by the provider holding their charge.", p),
		exceptionAge: gaugeVec("pixgate_reconciliation_exception_oldest_open_seconds",
			"Age of each provider's oldest open reconciliation exception (absent when none is open).", p),
		creditLag: gaugeVec("pixgate_charge_credit_lag_seconds",
			"From a charge's payment at the provider to its credit in the ledger, over the charges paid in the last 15 minutes, by quantile.", q),
		postbackLag: gaugeVec("pixgate_withdrawal_postback_lag_seconds",
			"From a withdrawal's creation to the delivery of its final postback, over the postbacks of the last 15 minutes, by quantile.", q),
		postbacks: gaugeVec("pixgate_postbacks_recent",
			"Postbacks written in the last hour, by integrator id and state (delivered, retrying, waiting, failed, stopped).",
			[]string{"integrator", "state"}),
	}
	reg.MustRegister(g.float, g.closing, g.closingDiff, g.unexplained, g.blocked, g.debt, g.debtors, g.infractions,
		g.exceptionAge, g.creditLag, g.postbackLag, g.postbacks)
	return g
}

func gaugeVec(name, help string, labels []string) *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
}

// Run refreshes the gauges every interval until ctx ends. A figure that
// cannot be read keeps its last value and is logged; the others still
// refresh.
func (g *OpsGauges) Run(ctx context.Context, db OpsStore, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		g.refresh(ctx, db, time.Now(), log)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (g *OpsGauges) refresh(ctx context.Context, db OpsStore, now time.Time, log *slog.Logger) {
	steps := []struct {
		name string
		run  func() error
	}{
		{"floats", func() error { return g.refreshFloats(ctx, db) }},
		{"med", func() error { return g.refreshMED(ctx, db) }},
		{"reconciliation", func() error { return g.refreshExceptions(ctx, db, now) }},
		{"lags", func() error { return g.refreshLags(ctx, db, now) }},
		{"postbacks", func() error { return g.refreshPostbacks(ctx, db, now) }},
	}
	for _, s := range steps {
		if err := s.run(); err != nil && ctx.Err() == nil {
			log.Warn("could not refresh the operators' gauges", "figures", s.name, "err", err)
		}
	}
}

func (g *OpsGauges) refreshFloats(ctx context.Context, db OpsStore) error {
	floats, err := db.FloatBalances(ctx)
	if err != nil {
		return err
	}
	closes, err := db.LastReconCloses(ctx)
	if err != nil {
		return err
	}
	g.float.Reset()
	for name, f := range floats {
		g.float.WithLabelValues(name).Set(float64(f))
	}
	// Reset first: a provider whose statement stops reporting a balance
	// must not keep an old figure.
	for _, v := range []*prometheus.GaugeVec{g.closing, g.closingDiff, g.unexplained} {
		v.Reset()
	}
	for name, c := range closes {
		setIf(g.closing, name, c.Closing)
		setIf(g.closingDiff, name, c.ClosingDifference)
		setIf(g.unexplained, name, c.Unexplained)
	}
	return nil
}

func setIf(v *prometheus.GaugeVec, provider string, m *money.Money) {
	if m != nil {
		v.WithLabelValues(provider).Set(float64(*m))
	}
}

func (g *OpsGauges) refreshMED(ctx context.Context, db OpsStore) error {
	e, err := db.MEDExposure(ctx)
	if err != nil {
		return err
	}
	g.blocked.Set(float64(e.Blocked))
	g.debt.Set(float64(e.Debt))
	g.debtors.Set(float64(e.Debtors))
	g.infractions.Reset()
	for name, n := range e.Open {
		g.infractions.WithLabelValues(name).Set(float64(n))
	}
	return nil
}

func (g *OpsGauges) refreshExceptions(ctx context.Context, db OpsStore, now time.Time) error {
	oldest, err := db.OldestOpenReconExceptions(ctx)
	if err != nil {
		return err
	}
	g.exceptionAge.Reset()
	for name, at := range oldest {
		g.exceptionAge.WithLabelValues(name).Set(max(now.Sub(at), 0).Seconds())
	}
	return nil
}

func (g *OpsGauges) refreshLags(ctx context.Context, db OpsStore, now time.Time) error {
	credit, err := db.CreditLags(ctx, now.Add(-lagWindow))
	if err != nil {
		return err
	}
	postback, err := db.WithdrawalPostbackLags(ctx, now.Add(-lagWindow))
	if err != nil {
		return err
	}
	setLags(g.creditLag, credit)
	setLags(g.postbackLag, postback)
	return nil
}

// setLags replaces v's series: a provider with nothing in the window has
// none (no lag to judge, rather than an old one).
func setLags(v *prometheus.GaugeVec, lags map[string]storage.Lags) {
	v.Reset()
	for name, l := range lags {
		v.WithLabelValues(name, "0.5").Set(l.P50)
		v.WithLabelValues(name, "0.95").Set(l.P95)
		v.WithLabelValues(name, "0.99").Set(l.P99)
	}
}

func (g *OpsGauges) refreshPostbacks(ctx context.Context, db OpsStore, now time.Time) error {
	recent, err := db.RecentPostbacks(ctx, now.Add(-postbackWindow))
	if err != nil {
		return err
	}
	g.postbacks.Reset()
	for integrator, states := range recent {
		for state, n := range states {
			g.postbacks.WithLabelValues(integrator, state).Set(float64(n))
		}
	}
	return nil
}
