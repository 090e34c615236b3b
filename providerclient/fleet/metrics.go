package fleet

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/providerclient"
)

// metrics are the fleet's per-provider metrics; a nil *metrics records
// nothing. The call counts and latencies are providerclient.WithMetrics's
// (pixgate_provider_calls_total, pixgate_provider_call_duration_seconds).
type metrics struct {
	breaker      *prometheus.GaugeVec
	ratio        *prometheus.GaugeVec
	out          *prometheus.GaugeVec
	eliminations *prometheus.CounterVec
	inflight     *prometheus.GaugeVec
	full         *prometheus.CounterVec
	failovers    *prometheus.CounterVec
	hedges       *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	if reg == nil {
		return nil
	}
	p := []string{"provider"}
	pl := []string{"provider", "lane"}
	return &metrics{
		breaker: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "pixgate_provider_breaker_state",
			Help: "Each provider's circuit breaker of each lane (create, send, read, statement): 0 closed, 1 half-open, 2 open."}, pl)),
		ratio: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "pixgate_provider_success_ratio",
			Help: "Each provider's share of successful calls over the health window (its health score)."}, p)),
		out: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "pixgate_provider_eliminated",
			Help: "1 while a provider is eliminated from routes for its health, 0 otherwise."}, p)),
		eliminations: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pixgate_provider_eliminations_total",
			Help: "Times a provider was eliminated from routes for its health."}, p)),
		inflight: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "pixgate_provider_in_flight",
			Help: "Calls in flight to each provider from this process, by lane (each bounded by its bulkhead)."}, pl)),
		full: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pixgate_provider_bulkhead_full_total",
			Help: "Calls refused at once because the provider's bulkhead of their lane was full."}, pl)),
		failovers: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pixgate_provider_failovers_total",
			Help: "Operations that left a provider for the next one of their route, by the provider left, operation and reason."},
			[]string{"provider", "op", "reason"})),
		hedges: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{Name: "pixgate_provider_hedged_attempts_total",
			Help: "Hedged attempts: reads sent again beside one the provider had not answered within the hedge delay (hedge.go), by provider and lane."}, pl)),
	}
}

// register registers c, or returns the collector of the same description
// registered before.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic(err)
	}
	return c
}

var breakerStates = map[string]float64{"closed": 0, "half-open": 1, "open": 2}

func (m *metrics) breakerState(provider string, lane providerclient.Lane, state string) {
	if m != nil {
		m.breaker.WithLabelValues(provider, string(lane)).Set(breakerStates[state])
	}
}

func (m *metrics) successRatio(provider string, ok, fails int) {
	if m != nil && ok+fails > 0 {
		m.ratio.WithLabelValues(provider).Set(float64(ok) / float64(ok+fails))
	}
}

func (m *metrics) eliminated(provider string, out bool) {
	if m == nil {
		return
	}
	if out {
		m.out.WithLabelValues(provider).Set(1)
		m.eliminations.WithLabelValues(provider).Inc()
		return
	}
	m.out.WithLabelValues(provider).Set(0)
}

func (m *metrics) inFlight(provider string, lane providerclient.Lane, delta float64) {
	if m != nil {
		m.inflight.WithLabelValues(provider, string(lane)).Add(delta)
	}
}

func (m *metrics) bulkheadFull(provider string, lane providerclient.Lane) {
	if m != nil {
		m.full.WithLabelValues(provider, string(lane)).Inc()
	}
}

func (m *metrics) failover(provider, op, reason string) {
	if m != nil {
		m.failovers.WithLabelValues(provider, op, reason).Inc()
	}
}

func (m *metrics) hedged(provider string, lane providerclient.Lane) {
	if m != nil {
		m.hedges.WithLabelValues(provider, string(lane)).Inc()
	}
}
