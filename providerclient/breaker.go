package providerclient

import (
	"context"
	"errors"
	"time"

	"github.com/sony/gobreaker/v2"
)

// breakerClient fails fast while the provider is down. Only transient
// failures count against it; a rejection proves the provider is up.
type breakerClient struct {
	next Client
	cb   *gobreaker.CircuitBreaker[any]
}

// WithBreaker wraps next in a circuit breaker that judges the provider by
// its failure ratio over a rolling window (cfg.BreakerWindow, ten buckets):
// it opens when at least cfg.BreakerFailures calls in the window failed
// transiently (ErrUnavailable, ErrUnknownOutcome) and they are at least
// cfg.BreakerFailureRatio of the window's calls. Open, it answers
// ErrBreakerOpen without calling next for cfg.BreakerOpenTimeout; then it
// lets cfg.BreakerProbes calls through: that many successes in a row close
// it, one transient failure opens it again. Rejections (4xx) count as
// successes and calls cancelled by their caller are not counted.
//
// A ratio rather than a run of consecutive failures: a provider failing
// half its calls produces runs of five failures every few seconds, and
// tripping on them turned a degraded provider into an outage.
func WithBreaker(next Client, cfg Config) Client {
	cfg = cfg.withDefaults()
	st := gobreaker.Settings{
		Name:         "provider",
		MaxRequests:  cfg.BreakerProbes,
		Interval:     cfg.BreakerWindow,
		BucketPeriod: max(cfg.BreakerWindow/10, time.Millisecond),
		Timeout:      cfg.BreakerOpenTimeout,
		ReadyToTrip:  tripRule(cfg.BreakerFailures, cfg.BreakerFailureRatio),
		IsSuccessful: func(err error) bool { return err == nil || !transient(err) },
		IsExcluded:   func(err error) bool { return errors.Is(err, context.Canceled) },
	}
	if f := cfg.OnBreakerStateChange; f != nil {
		st.OnStateChange = func(_ string, from, to gobreaker.State) { f(from.String(), to.String()) }
	}
	return &breakerClient{next: next, cb: gobreaker.NewCircuitBreaker[any](st)}
}

// tripRule opens the breaker once the window holds at least minFailures
// failures and they are at least ratio of its counted calls.
func tripRule(minFailures uint32, ratio float64) func(gobreaker.Counts) bool {
	return func(c gobreaker.Counts) bool {
		counted := c.TotalFailures + c.TotalSuccesses
		return c.TotalFailures >= minFailures && float64(c.TotalFailures) >= ratio*float64(counted)
	}
}

// guard runs call through the breaker.
func guard[T any](b *breakerClient, op string, call func() (*T, error)) (*T, error) {
	v, err := b.cb.Execute(func() (any, error) { return call() })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return nil, &Error{Op: op, Kind: ErrBreakerOpen}
	}
	res, _ := v.(*T)
	return res, err
}

func (b *breakerClient) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return guard(b, opCharge, func() (*Charge, error) { return b.next.CreateCharge(ctx, req) })
}

func (b *breakerClient) CreatePayment(ctx context.Context, req PaymentRequest) (*Payment, error) {
	return guard(b, opPayment, func() (*Payment, error) { return b.next.CreatePayment(ctx, req) })
}

func (b *breakerClient) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return guard(b, opRefund, func() (*Refund, error) { return b.next.CreateRefund(ctx, req) })
}

func (b *breakerClient) ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error) {
	return guard(b, opConsult, func() (*Transaction, error) { return b.next.ConsultTransaction(ctx, pixID) })
}

func (b *breakerClient) Balance(ctx context.Context) (*Balance, error) {
	return guard(b, opBalance, func() (*Balance, error) { return b.next.Balance(ctx) })
}
