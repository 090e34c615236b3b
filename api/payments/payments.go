// Package payments is what PixGate does for an integrator, whichever surface
// asked: create a charge, a withdrawal or a refund, find a record by its id,
// external_id or pix_id, list records, read the balance; and what it does
// with the provider's notifications. The v1 and v2 handlers parse their
// requests into the inputs below, call a Service, and render what it
// returns in their own shape; no HTTP is spoken here.
//
// Errors are typed: a *RuleError (a payment rule refused the request; it
// names the field), and the errors of the layers below as they are:
// storage.ErrNotFound, storage.ErrIdempotencyConflict,
// ledger.InsufficientFundsError and *providerclient.Error.
package payments

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// Store is the part of storage the payment operations use; *storage.DB is
// one.
type Store interface {
	CreateCharge(ctx context.Context, nc storage.NewCharge) (storage.Charge, bool, error)
	ReopenCharge(ctx context.Context, id uuid.UUID) (storage.Charge, error)
	IssueCharge(ctx context.Context, id uuid.UUID, is storage.ChargeIssue) (storage.Charge, error)
	FailChargeAt(ctx context.Context, id uuid.UUID, reason, provider string) (storage.Charge, error)
	Charge(ctx context.Context, integratorID int64, ref string) (storage.Charge, error)
	ListCharges(ctx context.Context, p storage.ListParams) ([]storage.Charge, bool, error)
	CreateWithdrawal(ctx context.Context, nw storage.NewWithdrawal) (storage.Transfer, bool, error)
	CreateRefund(ctx context.Context, nr storage.NewRefund) (storage.Transfer, bool, error)
	Transfer(ctx context.Context, kind storage.TransferKind, integratorID int64, ref string) (storage.Transfer, error)
	ListTransfers(ctx context.Context, kind storage.TransferKind, p storage.ListParams) ([]storage.Transfer, bool, error)
	Wallet(ctx context.Context, integratorID int64) (storage.Wallet, error)
	TransactionByPixID(ctx context.Context, integratorID int64, pixID string) (storage.PixTransaction, error)
	RecordProviderEvent(ctx context.Context, e storage.NewProviderEvent, outbox func(eventID int64) storage.OutboxMessage) (int64, bool, error)
	RouteFor(ctx context.Context, integratorID int64) (storage.Route, error)
	ForeignSubAccounts(ctx context.Context, parent int64, ids []int64) ([]int64, error)
}

// Provider is what the API asks of the provider's connector: the one call
// made while the integrator waits, issuing a charge's QR code (the payer is
// at a checkout), and reading the claims of its notifications (no call).
// Everything else reaches the provider through the outbox and a worker.
type Provider interface {
	CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error)
	ParseNotification(header http.Header, body []byte) ([]providerclient.Event, error)
}

// Router creates a charge along a route, failing over from one provider
// to the next, and names the provider that holds it; a *fleet.Fleet is one.
// A Provider that is no Router takes every charge itself.
type Router interface {
	IssueCharge(ctx context.Context, route fleet.Route, req providerclient.ChargeRequest) (*providerclient.Charge, string, error)
}

// Providers finds one of the process's providers by name, for the
// notifications each posts to its own path; a *fleet.Fleet is one.
type Providers interface {
	Provider(name string) (providerclient.Connector, bool)
}

// Config holds the payment settings.
type Config struct {
	// ProviderWebhookURL is PixGate's own notification address, sent to the
	// provider as every charge's postbackUrl. The integrator's postbackUrl
	// never leaves PixGate: PixGate confirms events itself and then notifies
	// the integrator.
	ProviderWebhookURL string
	// ProviderTimeout bounds the charge's provider call, retries included.
	// Default 15s.
	ProviderTimeout time.Duration
	// Now is the clock of the rules that depend on time. Default time.Now.
	Now func() time.Time
	// LookupBudget is what key lookups spend, per account; nil: they are
	// not limited.
	LookupBudget LookupBudget
}

// DefaultChargeExpiration is a charge's validity when the integrator asks
// for none: an hour, the provider family's default, asked of every
// provider, whose own defaults differ (BCB's cob, which Efí serves, is 24
// hours).
const DefaultChargeExpiration = time.Hour

// DefaultProviderTimeout applies to a zero Config.ProviderTimeout.
const DefaultProviderTimeout = 15 * time.Second

// Service runs the payment operations. It is safe for concurrent use.
type Service struct {
	cfg         Config
	store       Store
	infractions InfractionStore // nil: the MED operations answer ErrNotFound
	recurrences RecurrenceStore // nil: recurrences answer ErrNotFound
	lookups     LookupCounter   // nil: key lookups are not counted
	approvals   ApprovalStore   // nil: batches and approvals answer ErrNotFound
	provider    Provider        // nil: charges are refused before anything is written
	log         *slog.Logger
}

// New builds a Service; a nil logger discards.
func New(cfg Config, store Store, provider Provider, log *slog.Logger) *Service {
	if cfg.ProviderTimeout <= 0 {
		cfg.ProviderTimeout = DefaultProviderTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	infractions, _ := store.(InfractionStore)
	recurrences, _ := store.(RecurrenceStore)
	lookups, _ := store.(LookupCounter)
	approvals, _ := store.(ApprovalStore)
	return &Service{cfg: cfg, store: store, infractions: infractions, recurrences: recurrences, lookups: lookups, approvals: approvals,
		provider: provider, log: log}
}
