package statements

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// provider is a connector whose statements hold one unknown PIX a day,
// counting the statements read.
type provider struct {
	providerclient.Connector // nil: only what the reconciliation calls is here
	name                     string
	reads                    atomic.Int64
}

func (p *provider) Name() string { return p.name }
func (p *provider) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Statement: true, StatementBalances: true}
}

func (p *provider) Statement(_ context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	p.reads.Add(1)
	noon := req.Day.Start().Add(12 * time.Hour)
	return &providerclient.StatementPage{Balances: &providerclient.DayBalances{Opening: 0, Closing: 700},
		Lines: []providerclient.StatementLine{{Kind: providerclient.KindCharge, Direction: providerclient.In, ProviderID: "x-" + req.Day.String(),
			Amount: money.Money(700), Status: providerclient.StatusPaid, SettledAt: noon}}}, nil
}

// Two workers ticking at once reconcile each provider's past days once
// between them, report the day's unknown PIX in the metrics, and leave
// nothing due.
func TestWorkersReconcileEachDayOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	a, b := &provider{name: "a"}, &provider{name: "b"}
	providers := func() []providerclient.Connector { return []providerclient.Connector{a, b} }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	w1, w2 := New(Config{}, db, providers, log, m), New(Config{}, db, providers, log, nil)
	// Half a day back: each past day is then due (its end plus After), even
	// in the first minutes after midnight in São Paulo, when yesterday is
	// not yet.
	for _, w := range []*Reconciler{w1, w2} {
		w.now = func() time.Time { return time.Now().Add(-12 * time.Hour) }
	}
	var wg sync.WaitGroup
	for _, w := range []*Reconciler{w1, w2} {
		wg.Add(1)
		go func() { defer wg.Done(); w.tick(ctx) }()
	}
	wg.Wait()
	w1.tick(ctx) // nothing left
	if n := a.reads.Load() + b.reads.Load(); n != 2*CatchUp {
		t.Fatalf("%d statements read, want %d: each provider's %d past days once", n, 2*CatchUp, CatchUp)
	}
	var runs, due int
	if err := db.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM reconciliation_runs WHERE status = 'done'),
		(SELECT count(*) FROM reconciliation_days WHERE next_run_at IS NOT NULL)`).Scan(&runs, &due); err != nil {
		t.Fatal(err)
	}
	if runs != 2*CatchUp || due != 0 {
		t.Fatalf("%d runs, %d days still due", runs, due)
	}
	var g dto.Metric
	if err := m.m.open.WithLabelValues("a", "missing_in_pixgate").Write(&g); err != nil || g.GetGauge().GetValue() != CatchUp {
		got := g.GetGauge().GetValue()
		t.Fatalf("open missing_in_pixgate of a: %v (%v), want %d", got, err, CatchUp)
	}
}

// A day that does not reconcile is a warning naming what is open, and the
// open exceptions are counted by provider and kind; once resolved, the day
// run again is reconciled, logged as such, and nothing is counted open.
func TestUnreconciledDayWarnsAndCounts(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	p := &provider{name: "a"}
	if _, err := db.AddProvider(ctx, storage.Provider{Name: "a", Kind: "family", URL: "http://127.0.0.1:1"}); err != nil {
		t.Fatal(err) // its float takes the adjustment below
	}
	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	r := New(Config{}, db, func() []providerclient.Connector { return []providerclient.Connector{p} },
		slog.New(slog.NewTextHandler(&logs, nil)), m)
	day := providerclient.DayOf(time.Now()).AddDays(-3)
	gauge := func(kind string) float64 {
		var g dto.Metric
		if err := m.m.open.WithLabelValues("a", kind).Write(&g); err != nil {
			t.Fatal(err)
		}
		return g.GetGauge().GetValue()
	}
	runs := func(result string) float64 {
		var c dto.Metric
		if err := m.m.runs.WithLabelValues("a", result).Write(&c); err != nil {
			t.Fatal(err)
		}
		return c.GetCounter().GetValue()
	}

	if _, err := r.Run(ctx, "a", day, storage.TriggerOperator); err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	if !strings.Contains(out, "level=WARN msg=\"provider day does not reconcile\"") || !strings.Contains(out, "missing_in_pixgate=1") ||
		!strings.Contains(out, "provider=a day="+day.String()) {
		t.Fatalf("the log of a day that does not reconcile:\n%s", out)
	}
	if gauge("missing_in_pixgate") != 1 || gauge("amount_mismatch") != 0 || runs("unreconciled") != 1 {
		t.Fatalf("metrics: missing_in_pixgate %v, amount_mismatch %v, unreconciled runs %v",
			gauge("missing_in_pixgate"), gauge("amount_mismatch"), runs("unreconciled"))
	}

	var item uuid.UUID
	if err := db.ReconciliationItems(ctx, "a", day.String(), func(it storage.ReconItem) error { item = it.ID; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ResolveReconciliationItem(ctx, item, storage.ReconResolution{Operator: "ana", Reason: "ours",
		PostAdjustment: true}); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	if run, err := r.Run(ctx, "a", day, storage.TriggerOperator); err != nil || !run.Reconciled() {
		t.Fatalf("rerun after the resolution: %+v, %v", run, err)
	}
	if out := logs.String(); strings.Contains(out, "WARN") || !strings.Contains(out, "provider day reconciled") {
		t.Fatalf("the log of a day that reconciles:\n%s", out)
	}
	if gauge("missing_in_pixgate") != 0 || runs("reconciled") != 1 {
		t.Fatalf("metrics after the resolution: missing_in_pixgate %v, reconciled runs %v", gauge("missing_in_pixgate"), runs("reconciled"))
	}
}

// lateProvider's statements hold one PIX PixGate never heard of, a
// minute before the day's end: the other side may date it on the next day.
type lateProvider struct{ provider }

func (p *lateProvider) Statement(_ context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	return &providerclient.StatementPage{Lines: []providerclient.StatementLine{{Kind: providerclient.KindCharge,
		Direction: providerclient.In, ProviderID: "late-" + req.Day.String(), Amount: money.Money(700), Status: providerclient.StatusPaid,
		SettledAt: req.Day.End().Add(-time.Minute)}}}, nil
}

// What time may still settle is expected until the day's grace period
// ends, and the day is due again then: the worker's run at that time
// reports what is left as an exception, and nothing is due after it.
func TestWorkerRunsADayAgainWhenItsGraceEnds(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	p := &lateProvider{provider{name: "late"}}
	r := New(Config{}, db, func() []providerclient.Connector { return []providerclient.Connector{p} },
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	day := providerclient.DayOf(time.Now()).AddDays(-1)
	first, err := r.Run(ctx, "late", day, storage.TriggerOperator)
	if err != nil || first.Expected != 1 || first.Exceptions != 0 {
		t.Fatalf("within the grace period: %+v, %v", first, err)
	}
	var next *time.Time
	if err := db.Pool().QueryRow(ctx, `SELECT next_run_at FROM reconciliation_days WHERE provider = 'late' AND day = $1::date`,
		day.String()).Scan(&next); err != nil || next == nil || !next.Equal(day.End().Add(DefaultGrace)) {
		t.Fatalf("due again at %v (%v), want at the grace period's end %v", next, err, day.End().Add(DefaultGrace))
	}

	// The grace period ends.
	if _, err := db.Pool().Exec(ctx, `UPDATE reconciliation_days SET next_run_at = now() - interval '1 second'
		WHERE provider = 'late' AND day = $1::date`, day.String()); err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.Now().Add(2 * DefaultGrace) }
	r.tick(ctx)
	after, err := db.LatestReconciliation(ctx, "late", day.String())
	if err != nil || after.ID == first.ID || after.Trigger != storage.TriggerWorker || after.Expected != 0 ||
		after.ByKind[storage.ReconMissingInPixGate] != 1 {
		t.Fatalf("the worker's run after the grace period: %+v, %v", after, err)
	}
	if err := db.Pool().QueryRow(ctx, `SELECT next_run_at FROM reconciliation_days WHERE provider = 'late' AND day = $1::date`,
		day.String()).Scan(&next); err != nil || next != nil {
		t.Fatalf("still due at %v (%v)", next, err)
	}
}

// loopingProvider's statement pages name the same next page for ever
// once broken is set.
type loopingProvider struct {
	provider
	broken atomic.Bool
}

func (p *loopingProvider) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	page, err := p.provider.Statement(ctx, req)
	if err == nil && p.broken.Load() {
		page.Next = "again"
	}
	return page, err
}

// A rerun that cannot read the statement to its end (its pages loop) fails
// whole and is recorded as failed, with its error; the day's result stays
// the last good run's.
func TestAFailedRerunLeavesTheDaysResult(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	p := &loopingProvider{provider: provider{name: "a"}}
	r := New(Config{}, db, func() []providerclient.Connector { return []providerclient.Connector{p} },
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	day := providerclient.DayOf(time.Now()).AddDays(-3)
	good, err := r.Run(ctx, "a", day, storage.TriggerOperator)
	if err != nil {
		t.Fatal(err)
	}
	p.broken.Store(true)
	if _, err := r.Run(ctx, "a", day, storage.TriggerOperator); err == nil || !strings.Contains(err.Error(), "pages loop") {
		t.Fatalf("a rerun over looping pages: %v", err)
	}
	standing, err := db.LatestReconciliation(ctx, "a", day.String())
	if err != nil || standing.ID != good.ID || standing.OpenExceptions != 1 {
		t.Fatalf("the day's result after a failed rerun: %+v, %v, want run %d", standing, err, good.ID)
	}
	var failed int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM reconciliation_runs WHERE status = 'failed' AND error LIKE '%pages loop%'`).
		Scan(&failed); err != nil || failed != 1 {
		t.Fatalf("%d failed runs recorded, %v", failed, err)
	}
}
