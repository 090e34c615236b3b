package providerclient

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metricsClient counts and times the calls that reach the provider.
type metricsClient struct {
	next     Client
	calls    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// WithMetrics wraps next with Prometheus metrics: calls by operation and
// result (ok, rejected, not_found, unavailable, unknown_outcome,
// breaker_open) and their latency. New puts it inside the breaker, so it
// counts every attempt actually sent, retries included; the breaker's
// state is reported through Config.OnBreakerStateChange.
func WithMetrics(next Client, reg prometheus.Registerer) Client {
	m := &metricsClient{
		next: next,
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_provider_calls_total", Help: "Calls to the settlement provider, by operation and result.",
		}, []string{"op", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pixgate_provider_call_duration_seconds", Help: "Latency of calls to the settlement provider, by operation.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"op"}),
	}
	reg.MustRegister(m.calls, m.duration)
	return m
}

func observe[T any](m *metricsClient, op string, call func() (*T, error)) (*T, error) {
	start := time.Now()
	res, err := call()
	m.duration.WithLabelValues(op).Observe(time.Since(start).Seconds())
	m.calls.WithLabelValues(op, resultOf(err)).Inc()
	return res, err
}

func resultOf(err error) string {
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

func (m *metricsClient) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return observe(m, opCharge, func() (*Charge, error) { return m.next.CreateCharge(ctx, req) })
}

func (m *metricsClient) CreatePayment(ctx context.Context, req PaymentRequest) (*Payment, error) {
	return observe(m, opPayment, func() (*Payment, error) { return m.next.CreatePayment(ctx, req) })
}

func (m *metricsClient) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return observe(m, opRefund, func() (*Refund, error) { return m.next.CreateRefund(ctx, req) })
}

func (m *metricsClient) ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error) {
	return observe(m, opConsult, func() (*Transaction, error) { return m.next.ConsultTransaction(ctx, pixID) })
}

func (m *metricsClient) Balance(ctx context.Context) (*Balance, error) {
	return observe(m, opBalance, func() (*Balance, error) { return m.next.Balance(ctx) })
}
