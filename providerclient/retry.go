package providerclient

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// retryClient repeats transient failures of calls that are safe to repeat.
type retryClient struct {
	next       Client
	maxElapsed time.Duration
}

// WithRetry wraps next with short exponential retries (backoff/v4: 50 ms
// doubling up to 500 ms, jittered, for at most cfg.RetryMaxElapsed) of
// transient failures: ErrUnavailable and ErrUnknownOutcome, never a
// rejection, never ErrBreakerOpen, never after the caller's context ended.
// Only calls safe to repeat are retried: ConsultTransaction and Balance
// always; CreateCharge, CreatePayment and CreateRefund only with an
// ExternalID, which the provider deduplicates.
func WithRetry(next Client, cfg Config) Client {
	cfg = cfg.withDefaults()
	return &retryClient{next: next, maxElapsed: cfg.RetryMaxElapsed}
}

func (r *retryClient) newBackOff() backoff.BackOff {
	if r.maxElapsed < 0 {
		return &backoff.StopBackOff{}
	}
	return backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(50*time.Millisecond),
		backoff.WithMultiplier(2),
		backoff.WithMaxInterval(500*time.Millisecond),
		backoff.WithRandomizationFactor(0.5),
		backoff.WithMaxElapsedTime(r.maxElapsed),
	)
}

// repeat calls call until it succeeds, fails for good, or the backoff or
// the context runs out; it returns the last typed error, never a bare
// context error.
func repeat[T any](ctx context.Context, r *retryClient, safe bool, call func() (*T, error)) (*T, error) {
	b := r.newBackOff()
	for {
		res, err := call()
		if err == nil || !safe || !transient(err) || ctx.Err() != nil {
			return res, err
		}
		wait := b.NextBackOff()
		if wait == backoff.Stop {
			return res, err
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return res, err
		}
	}
}

func (r *retryClient) CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error) {
	return repeat(ctx, r, req.ExternalID != "", func() (*Charge, error) { return r.next.CreateCharge(ctx, req) })
}

func (r *retryClient) CreatePayment(ctx context.Context, req PaymentRequest) (*Payment, error) {
	return repeat(ctx, r, req.ExternalID != "", func() (*Payment, error) { return r.next.CreatePayment(ctx, req) })
}

func (r *retryClient) CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error) {
	return repeat(ctx, r, req.ExternalID != "", func() (*Refund, error) { return r.next.CreateRefund(ctx, req) })
}

func (r *retryClient) ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error) {
	return repeat(ctx, r, true, func() (*Transaction, error) { return r.next.ConsultTransaction(ctx, pixID) })
}

func (r *retryClient) Balance(ctx context.Context) (*Balance, error) {
	return repeat(ctx, r, true, func() (*Balance, error) { return r.next.Balance(ctx) })
}
