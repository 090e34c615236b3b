package providerclient

import (
	"context"
	"errors"

	"github.com/sony/gobreaker/v2"
)

// breakerClient fails fast while the provider is down. Only transient
// failures count against it; a rejection proves the provider is up.
type breakerClient struct {
	next Client
	cb   *gobreaker.CircuitBreaker[any]
}

// WithBreaker wraps next in a circuit breaker that opens after
// cfg.BreakerFailures consecutive transient failures (ErrUnavailable,
// ErrUnknownOutcome), answers ErrBreakerOpen without calling next for
// cfg.BreakerOpenTimeout, then lets one probe through: success closes it,
// another transient failure opens it again. Rejections (4xx) count as
// successes and calls cancelled by their caller are not counted.
func WithBreaker(next Client, cfg Config) Client {
	cfg = cfg.withDefaults()
	st := gobreaker.Settings{
		Name:        "provider",
		MaxRequests: 1,
		Timeout:     cfg.BreakerOpenTimeout,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= cfg.BreakerFailures
		},
		IsSuccessful: func(err error) bool { return err == nil || !transient(err) },
		IsExcluded:   func(err error) bool { return errors.Is(err, context.Canceled) },
	}
	if f := cfg.OnBreakerStateChange; f != nil {
		st.OnStateChange = func(_ string, from, to gobreaker.State) { f(from.String(), to.String()) }
	}
	return &breakerClient{next: next, cb: gobreaker.NewCircuitBreaker[any](st)}
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
