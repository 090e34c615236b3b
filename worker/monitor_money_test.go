package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// fakeOps answers the operators' figures; fail names the one that errs.
type fakeOps struct {
	fail  string
	since []time.Time
}

var errOps = errors.New("database unavailable")

func (f *fakeOps) err(name string) error {
	if f.fail == name {
		return errOps
	}
	return nil
}

func (f *fakeOps) FloatBalances(context.Context) (map[string]money.Money, error) {
	return map[string]money.Money{"a": 150000, "b": -20}, f.err("floats")
}

func (f *fakeOps) LastReconCloses(context.Context) (map[string]storage.ReconClose, error) {
	closing, diff, unexplained := money.Money(150500), money.Money(500), money.Money(0)
	return map[string]storage.ReconClose{"a": {Closing: &closing, ClosingDifference: &diff, Unexplained: &unexplained}, "b": {}},
		f.err("closes")
}

func (f *fakeOps) MEDExposure(context.Context) (storage.MEDExposure, error) {
	return storage.MEDExposure{Blocked: 700, Debt: 300, Debtors: 1, Open: map[string]int64{"a": 2}}, f.err("med")
}

func (f *fakeOps) OldestOpenReconExceptions(context.Context) (map[string]time.Time, error) {
	return map[string]time.Time{"a": opsNow.Add(-25 * time.Hour)}, f.err("exceptions")
}

func (f *fakeOps) CreditLags(_ context.Context, since time.Time) (map[string]storage.Lags, error) {
	f.since = append(f.since, since)
	return map[string]storage.Lags{"a": {P50: 1, P95: 4, P99: 9, Count: 10}}, f.err("credit")
}

func (f *fakeOps) WithdrawalPostbackLags(_ context.Context, since time.Time) (map[string]storage.Lags, error) {
	f.since = append(f.since, since)
	return map[string]storage.Lags{"b": {P50: 2, P95: 3, P99: 5, Count: 3}}, f.err("postback lags")
}

func (f *fakeOps) RecentPostbacks(_ context.Context, since time.Time) (map[string]map[string]int64, error) {
	f.since = append(f.since, since)
	return map[string]map[string]int64{"7": {"delivered": 9, "retrying": 1}}, f.err("postbacks")
}

var opsNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// Every figure lands in its gauge, labelled by provider (or integrator);
// a provider whose statement reports no balance has no balance series; the
// windows are the last 15 minutes and the last hour.
func TestOpsGaugesRefresh(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	g := NewOpsGauges(reg)
	f := &fakeOps{}
	g.refresh(context.Background(), f, opsNow, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, c := range []struct {
		got  prometheus.Gauge
		want float64
	}{
		{g.float.WithLabelValues("a"), 150000}, {g.float.WithLabelValues("b"), -20},
		{g.closing.WithLabelValues("a"), 150500}, {g.closingDiff.WithLabelValues("a"), 500}, {g.unexplained.WithLabelValues("a"), 0},
		{g.blocked, 700}, {g.debt, 300}, {g.debtors, 1}, {g.infractions.WithLabelValues("a"), 2},
		{g.exceptionAge.WithLabelValues("a"), 25 * 3600},
		{g.creditLag.WithLabelValues("a", "0.95"), 4}, {g.postbackLag.WithLabelValues("b", "0.99"), 5},
		{g.postbacks.WithLabelValues("7", "retrying"), 1},
	} {
		if v := gaugeValue(c.got); v != c.want {
			t.Errorf("%v: %v, want %v", c.got, v, c.want)
		}
	}
	if n := seriesCount(g.closing); n != 1 {
		t.Errorf("reported balances: %d series, want 1 (b reports none)", n)
	}
	want := []time.Time{opsNow.Add(-15 * time.Minute), opsNow.Add(-15 * time.Minute), opsNow.Add(-time.Hour)}
	for i, w := range want {
		if i >= len(f.since) || !f.since[i].Equal(w) {
			t.Fatalf("windows: %v, want %v", f.since, want)
		}
	}
	if _, err := reg.Gather(); err != nil {
		t.Fatal(err)
	}
}

// A figure that cannot be read is logged and keeps its last value; the
// others still refresh.
func TestOpsGaugesRefreshRefusals(t *testing.T) {
	for _, fail := range []string{"floats", "closes", "med", "exceptions", "credit", "postback lags", "postbacks"} {
		t.Run(fail, func(t *testing.T) {
			g := NewOpsGauges(prometheus.NewRegistry())
			g.blocked.Set(-1)
			var log strings.Builder
			g.refresh(context.Background(), &fakeOps{fail: fail}, opsNow, slog.New(slog.NewTextHandler(&log, nil)))
			if !strings.Contains(log.String(), errOps.Error()) {
				t.Errorf("log: %q, want the error", log.String())
			}
			wantBlocked := 700.0
			if fail == "med" {
				wantBlocked = -1
			}
			if v := gaugeValue(g.blocked); v != wantBlocked {
				t.Errorf("blocked: %v, want %v", v, wantBlocked)
			}
			if fail != "postbacks" && gaugeValue(g.postbacks.WithLabelValues("7", "delivered")) != 9 {
				t.Error("the postbacks were not refreshed")
			}
		})
	}
}

// Run refreshes at once, then every interval, and returns when ctx ends.
func TestOpsGaugesRun(t *testing.T) {
	g := NewOpsGauges(prometheus.NewRegistry())
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeOps{}
	done := make(chan struct{})
	go func() {
		g.Run(ctx, f, time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)))
		close(done)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for gaugeValue(g.debtors) != 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	if gaugeValue(g.debtors) != 1 {
		t.Fatal("Run did not refresh at once")
	}
}

func gaugeValue(g prometheus.Gauge) float64 {
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		return -1e9
	}
	return m.GetGauge().GetValue()
}

func seriesCount(c prometheus.Collector) int {
	ch := make(chan prometheus.Metric, 100)
	c.Collect(ch)
	close(ch)
	return len(ch)
}
