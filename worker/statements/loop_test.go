package statements

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/providerclient"
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
