package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// NewPostback is a notification to an integrator, created in the same SQL
// transaction as the state change it reports.
type NewPostback struct {
	ID           uuid.UUID // UUIDv7, also the webhook-id integrators deduplicate on
	IntegratorID int64
	ResourceType string // "charge", "withdrawal" or "refund"
	ResourceID   uuid.UUID
	Event        string // the status reached, e.g. "PAID", "COMPLETED"
	URL          string
	Body         []byte // exactly what is signed and sent, every attempt
	Outbox       OutboxMessage
}

// WritePostback records the postback PENDING and asks for its delivery,
// one statement. A resource reports each status once: a second postback
// for the same (resource, event) is ignored. Nobody waits for its answer:
// it is sent with the transaction's next statement or its commit (see
// later), and its error comes with theirs.
func (t *Tx) WritePostback(ctx context.Context, np NewPostback) error {
	return later(ctx, t.tx, func(row pgx.Row) error {
		var created bool
		if err := row.Scan(&created); err != nil {
			return fmt.Errorf("storage: create postback: %w", err)
		}
		if created {
			markOutbox(t.tx, np.Outbox)
		}
		return nil
	}, createPostbackSQL, postbackArgs(np)...)
}

func postbackArgs(np NewPostback) []any {
	return []any{np.ID, np.IntegratorID, np.ResourceType, np.ResourceID, np.Event, np.URL, np.Body,
		np.Outbox.Type, np.Outbox.ID, string(np.Outbox.Payload)}
}

const createPostbackSQL = `WITH p AS (
			INSERT INTO postbacks (id, integrator_id, resource_type, resource_id, event, url, body, status, next_attempt_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', now())
			ON CONFLICT (resource_type, resource_id, event) DO NOTHING RETURNING id
		), o AS (
			INSERT INTO outbox (task_type, task_id, payload) SELECT $8, $9, $10::jsonb FROM p ON CONFLICT (task_id) DO NOTHING
		)
		SELECT EXISTS (SELECT FROM p)`
