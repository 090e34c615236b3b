// Package statements reconciles PixGate's books with each provider's,
// day by day: it reads a provider's statement of a day through its
// connector, page by page, and streams it into storage, which matches it
// with PixGate's records and keeps what it found (storage.RunReconciliation).
// The Reconciler runs a day on demand (pixgate reconcile run); its loop,
// in every worker process, runs each provider's previous day once across
// all workers, and again when a day's grace period ends while some of its
// items are still expected. See docs/reconciliation.md.
package statements

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// Config says when a day's items stop being expected and how the loop
// runs. Zero values get the defaults.
type Config struct {
	// Grace is how long after a day's end its items may still settle on
	// their own (a payment PixGate hears of late, a line dated on the
	// other side of midnight): until then they are expected, not
	// exceptions. Default 24h: T+1, the end of the next day.
	Grace time.Duration
	// Boundary is how close to a day's start or end an item is near
	// midnight, where the two sides may date it on different days.
	// Default 15m.
	Boundary time.Duration
	// After is how long after a day's end the loop reconciles it. Default
	// the Boundary, so what settled at midnight is in.
	After time.Duration
	// Interval is how often the loop looks for due days. Default 1m.
	Interval time.Duration
	// Lease is how long a worker holds a day it runs before another may
	// take it over. Default 30m.
	Lease time.Duration
}

// Defaults of Config.
const (
	DefaultGrace    = 24 * time.Hour
	DefaultBoundary = 15 * time.Minute
)

func (c Config) withDefaults() Config {
	if c.Grace <= 0 {
		c.Grace = DefaultGrace
	}
	if c.Boundary <= 0 {
		c.Boundary = DefaultBoundary
	}
	if c.After <= 0 {
		c.After = c.Boundary
	}
	if c.Interval <= 0 {
		c.Interval = time.Minute
	}
	if c.Lease <= 0 {
		c.Lease = 30 * time.Minute
	}
	return c
}

// Store is what the reconciliation reads and writes: *storage.DB.
type Store interface {
	// RunReconciliation reconciles one provider day against its statement,
	// in one transaction (a rerun replaces the day's result).
	RunReconciliation(ctx context.Context, spec storage.ReconSpec, src storage.StatementSource) (storage.ReconRun, error)
	// ScheduleReconciliation makes sure a provider day is due at at (once).
	ScheduleReconciliation(ctx context.Context, provider, day string, at time.Time) error
	// ClaimReconciliation takes a due day for lease; ok false: none is due.
	ClaimReconciliation(ctx context.Context, lease time.Duration) (provider, day string, attempts int, ok bool, err error)
	// ReconciliationFailed sets a claimed day aside until retry.
	ReconciliationFailed(ctx context.Context, provider, day string, retry time.Time) error
	// OpenReconExceptions counts the open exceptions by provider and kind.
	OpenReconExceptions(ctx context.Context) (map[string]map[storage.ReconKind]int64, error)
}

// Reconciler runs reconciliations.
type Reconciler struct {
	cfg       Config
	db        Store
	providers func() []providerclient.Connector
	log       *slog.Logger
	metrics   *metrics
	now       func() time.Time
}

// New builds a Reconciler over db, reading the statements of the
// providers providers returns (each call: the set may change). metrics may
// be nil.
func New(cfg Config, db Store, providers func() []providerclient.Connector, log *slog.Logger, m *Metrics) *Reconciler {
	var mm *metrics
	if m != nil {
		mm = m.m
	}
	return &Reconciler{cfg: cfg.withDefaults(), db: db, providers: providers, log: log.With("component", "reconciliation"),
		metrics: mm, now: time.Now}
}

// ErrNoProvider: no provider has that name.
var ErrNoProvider = errors.New("no provider has that name")

// ErrNoStatement: the provider offers no statement (its contract has
// none; for the family's, PIXGATE_PROVIDER_EXTENSIONS is off).
var ErrNoStatement = errors.New("the provider offers no statement to reconcile with")

// Run reconciles provider's day now: a rerun replaces the day's result.
// It logs a warning when the day does not reconcile.
func (r *Reconciler) Run(ctx context.Context, provider string, day providerclient.Day, trigger string) (storage.ReconRun, error) {
	conn, err := r.provider(provider)
	if err != nil {
		return storage.ReconRun{}, err
	}
	if !conn.Capabilities().Statement {
		return storage.ReconRun{}, fmt.Errorf("provider %q: %w", provider, ErrNoStatement)
	}
	spec := storage.ReconSpec{Provider: provider, Day: day.String(), Start: day.Start(), End: day.End(),
		GraceUntil: day.End().Add(r.cfg.Grace), Boundary: r.cfg.Boundary, Trigger: trigger, Now: r.now()}
	run, err := r.db.RunReconciliation(ctx, spec, newSource(ctx, conn, day))
	r.metrics.ran(provider, run, err)
	if err != nil {
		return run, fmt.Errorf("reconcile %s %s: %w", provider, day, err)
	}
	r.report(run)
	r.refreshGauges(ctx)
	return run, nil
}

func (r *Reconciler) provider(name string) (providerclient.Connector, error) {
	for _, c := range r.providers() {
		if c.Name() == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("provider %q: %w", name, ErrNoProvider)
}

// report logs the day's outcome: a warning naming what is open and what
// is unexplained when it does not reconcile.
func (r *Reconciler) report(run storage.ReconRun) {
	attrs := []any{"provider", run.Provider, "day", run.Day, "run", run.ID, "lines", run.Lines, "matched", run.Matched,
		"expected", run.Expected, "exceptions_open", run.OpenExceptions}
	if run.Unexplained != nil {
		attrs = append(attrs, "unexplained", run.Unexplained.String())
	}
	if run.Reconciled() {
		r.log.Info("provider day reconciled", attrs...)
		return
	}
	for k, n := range run.ByKind {
		if k != storage.ReconMatched && n > 0 {
			attrs = append(attrs, string(k), n)
		}
	}
	r.log.Warn("provider day does not reconcile", attrs...)
}
