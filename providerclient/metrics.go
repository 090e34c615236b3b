package providerclient

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metered counts and times the calls that reach the provider.
type metered struct {
	next     Connector
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// WithMetrics wraps next with Prometheus metrics: calls by provider,
// operation and result (ok, rejected, not_found, unavailable,
// unknown_outcome, breaker_open) and their latency. Wrap puts it inside the
// breaker, so it counts every attempt actually sent, retries included.
// Several providers share the same metrics on one registry, told apart by
// their provider label.
//
// A nil reg records no metrics: the layer then only traces (tracing.go).
func WithMetrics(next Connector, reg prometheus.Registerer) Connector {
	if reg == nil {
		return &metered{next: next}
	}
	m := &metered{
		next: next,
		calls: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_provider_calls_total", Help: "Calls to settlement providers, by provider, operation and result.",
		}, []string{"provider", "op", "result"})),
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pixgate_provider_call_duration_seconds", Help: "Latency of calls to settlement providers, by provider and operation.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"provider", "op"})),
	}
	return m
}

// register registers c, or returns the collector of the same description
// registered before (by another provider's connector).
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

func observe[T any](ctx context.Context, m *metered, op string, call func() (*T, error)) (*T, error) {
	start := time.Now()
	span := m.startSpan(ctx, op)
	res, err := call()
	name := m.next.Name()
	result := ResultOf(err)
	span.end(result, err)
	if m.calls != nil {
		m.duration.WithLabelValues(name, op).Observe(time.Since(start).Seconds())
		m.calls.WithLabelValues(name, op, result).Inc()
	}
	return res, err
}

// ResultOf names the outcome of a call for metrics and logs.
func ResultOf(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrNotFound):
		return "not_found"
	case errors.Is(err, ErrRejected):
		return "rejected"
	case errors.Is(err, ErrBreakerOpen):
		return "breaker_open"
	case errors.Is(err, ErrUnavailable):
		return "unavailable"
	case errors.Is(err, ErrUnknownOutcome):
		return "unknown_outcome"
	}
	return "error"
}

func (m *metered) Name() string               { return m.next.Name() }
func (m *metered) Kind() string               { return m.next.Kind() }
func (m *metered) Capabilities() Capabilities { return m.next.Capabilities() }

func (m *metered) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return observe(ctx, m, OpCharge, func() (*Charge, error) { return m.next.CreateCharge(ctx, req) })
}

func (m *metered) SendPix(ctx context.Context, req PayoutRequest) (*Payout, error) {
	return observe(ctx, m, OpPayout, func() (*Payout, error) { return m.next.SendPix(ctx, req) })
}

func (m *metered) Refund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return observe(ctx, m, OpRefund, func() (*Refund, error) { return m.next.Refund(ctx, req) })
}

func (m *metered) Read(ctx context.Context, ref Ref) (*Transaction, error) {
	return observe(ctx, m, OpRead, func() (*Transaction, error) { return m.next.Read(ctx, ref) })
}

func (m *metered) Balance(ctx context.Context) (*Balance, error) {
	return observe(ctx, m, OpBalance, func() (*Balance, error) { return m.next.Balance(ctx) })
}

func (m *metered) ReadInfraction(ctx context.Context, ref InfractionRef) (*Infraction, error) {
	return observe(ctx, m, OpReadInfraction, func() (*Infraction, error) { return m.next.ReadInfraction(ctx, ref) })
}

func (m *metered) ListInfractions(ctx context.Context, since time.Time) ([]Infraction, error) {
	list, err := observe(ctx, m, OpListInfractions, func() (*[]Infraction, error) {
		l, err := m.next.ListInfractions(ctx, since)
		return &l, err
	})
	if list == nil {
		return nil, err
	}
	return *list, err
}

func (m *metered) DefendInfraction(ctx context.Context, ref InfractionRef, text string) error {
	_, err := observe(ctx, m, OpDefendInfraction, func() (*struct{}, error) { return nil, m.next.DefendInfraction(ctx, ref, text) })
	return err
}

func (m *metered) LookupKey(ctx context.Context, keyType, key string) (*KeyHolder, error) {
	return observe(ctx, m, OpLookupKey, func() (*KeyHolder, error) { return m.next.LookupKey(ctx, keyType, key) })
}

func (m *metered) ParseNotification(h http.Header, body []byte) ([]Event, error) {
	return m.next.ParseNotification(h, body)
}

func (m *metered) Statement(ctx context.Context, req StatementRequest) (*StatementPage, error) {
	return observe(ctx, m, OpStatement, func() (*StatementPage, error) { return m.next.Statement(ctx, req) })
}
