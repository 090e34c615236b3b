// Package family is the connector of the BSPay / PixUp family's legacy v2
// contract (charges by QR code, PIX payments, refunds, consult-transaction,
// balance): NewConnector is the connector, NewBase the contract's HTTP
// client under it, which fetches and caches the OAuth token (one fetch
// shared by concurrent callers, refreshed once on a 401), bounds each call
// with providerclient.Config.Timeout and classifies failures as
// *providerclient.Error. Retries, the circuit breaker and metrics are
// providerclient's layers (providerclient.Wrap), the same for every
// connector.
package family

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
	// (POST /v2/consult-transaction). An unknown id is providerclient.ErrNotFound.
	ConsultTransaction(ctx context.Context, pixID string) (*Transaction, error)
	// Balance reads the account balance (POST /v2/balance).
	Balance(ctx context.Context) (*Balance, error)
}
