// Package providerclient is PixGate's client of the settlement provider's v2
// contract (the BSPay / PixUp family): charges by QR code, PIX payments,
// refunds, transaction lookup and balance.
//
// New composes three layers, each a Client wrapping the next:
//
//	retry (WithRetry) → circuit breaker (WithBreaker) → [metrics (WithMetrics)] → HTTP (NewBase)
//
// The base client fetches and caches the OAuth token (one fetch shared by
// concurrent callers, refreshed once on a 401), bounds each call with
// Config.Timeout and classifies failures. The breaker opens after
// consecutive transient failures and then fails fast without touching the
// network. The retry layer repeats transient failures for a short while, but
// only calls that are safe to repeat.
//
// Errors are *Error values; branch on their kind with errors.Is: ErrRejected
// (and ErrNotFound), ErrUnavailable (and ErrBreakerOpen), ErrUnknownOutcome.
package providerclient

import "context"

// Client is the provider's v2 contract. Every method is safe for concurrent
// use.
type Client interface {
	// CreateCharge asks for a PIX charge (POST /v2/pix/qrcode). With an
	// ExternalID the provider returns the same charge for a repeated call.
	CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error)
	// CreatePayment sends a PIX (POST /v2/pix/payment). With an ExternalID a
	// repeated call returns the same payment and never pays twice.
	CreatePayment(ctx context.Context, req PaymentRequest) (*Payment, error)
	// CreateRefund returns money of a paid charge (POST /v2/pix/refund).
	CreateRefund(ctx context.Context, req RefundRequest) (*Refund, error)
	// ConsultTransaction reads a transaction by the provider's transactionId
	// (POST /v2/consult-transaction). An unknown id is ErrNotFound.
	ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error)
	// Balance reads the account balance (POST /v2/balance).
	Balance(ctx context.Context) (*Balance, error)
}

// New returns the full client: retries around a circuit breaker around the
// HTTP client. Build one per process and share it, so that API and worker
// code see the same breaker.
func New(cfg Config) Client {
	var c Client = NewBase(cfg)
	if cfg.Metrics != nil {
		c = WithMetrics(c, cfg.Metrics)
	}
	return WithRetry(WithBreaker(c, cfg), cfg)
}
