package api

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
)

// Store is the part of storage the API uses: what api/payments runs every
// operation with, and what the handlers read and write themselves (keys,
// sub-accounts, webhook endpoints, postbacks). *storage.DB is one.
//
// It holds all of payments' stores, those payments takes as optional
// too: the API offers the MED, recurrences, batches and approvals, and
// counts key lookups, so its store must have them.
type Store interface {
	payments.Store
	payments.InfractionStore
	payments.RecurrenceStore
	payments.ApprovalStore
	payments.LookupCounter
	keyStore
	subAccountStore
	postbackStore
	// Ping is /readyz's check of the database.
	Ping(ctx context.Context) error
}

// keyStore is the API keys the v1 and v2 surfaces authenticate.
type keyStore interface {
	AuthenticateKey(ctx context.Context, publicID, secret string) (storage.APIKey, storage.Integrator, error)
	// ActiveKey is the key a v2 access token was issued to, still active.
	ActiveKey(ctx context.Context, id int64) (storage.APIKey, storage.Integrator, error)
}

// subAccountStore is an integrator's sub-accounts (/api/v1/sub-accounts).
type subAccountStore interface {
	CreateIntegrator(ctx context.Context, ni storage.NewIntegrator) (storage.Integrator, storage.Credentials, error)
	SubAccounts(ctx context.Context, parent int64) ([]storage.SubAccount, error)
	SubAccountOf(ctx context.Context, parent, id int64) (storage.SubAccount, error)
}

// postbackStore is an integrator's webhook endpoints and postbacks
// (/api/v1/webhook-endpoints, /api/v1/postbacks).
type postbackStore interface {
	EndpointSummaries(ctx context.Context, integratorID int64) ([]storage.EndpointSummary, error)
	PauseEndpoint(ctx context.Context, integratorID int64, url string) (storage.WebhookEndpoint, error)
	ResumeEndpoint(ctx context.Context, integratorID int64, url string, msg func(storage.Postback) storage.OutboxMessage) (storage.WebhookEndpoint, int, error)
	PostbackLog(ctx context.Context, f storage.PostbackFilter) ([]storage.Postback, bool, error)
	PostbackAttempts(ctx context.Context, id uuid.UUID) ([]storage.PostbackAttempt, error)
	IntegratorPostback(ctx context.Context, integratorID int64, id uuid.UUID) (storage.Postback, error)
	RedeliverPostback(ctx context.Context, id uuid.UUID, msg storage.OutboxMessage) (storage.Postback, error)
	RedeliverPostbackRange(ctx context.Context, integratorID int64, since, until time.Time, most int,
		msg func(storage.Postback) storage.OutboxMessage) (int, error)
}

// The database is the API's store.
var _ Store = (*storage.DB)(nil)
