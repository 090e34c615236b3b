package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// ProviderEvent is one notification as the provider sent it. What it claims
// is confirmed with the provider before anything moves.
type ProviderEvent struct {
	ID              int64
	TransactionType string
	TransactionID   string
	Status          string
	Payload         []byte
	ReceivedAt      time.Time
	ProcessedAt     *time.Time
	Outcome         *string
}

// NewProviderEvent is a parsed notification.
type NewProviderEvent struct {
	TransactionType string
	TransactionID   string
	Status          string
	Payload         []byte // the raw JSON body
}

// DedupKey identifies what a notification claims: the same transaction,
// type and status is the same event, however often it is sent.
func (e NewProviderEvent) DedupKey() string {
	return e.TransactionType + ":" + e.TransactionID + ":" + e.Status
}

// RecordProviderEvent stores a notification once, with the outbox message
// that processes it (built by outbox from the new event's id). A duplicate
// is ignored: stored is false and nothing is written.
func (db *DB) RecordProviderEvent(ctx context.Context, e NewProviderEvent, outbox func(eventID int64) OutboxMessage) (id int64, stored bool, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `INSERT INTO provider_events (dedup_key, transaction_type, transaction_id, status, payload)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT (dedup_key) DO NOTHING RETURNING id`,
			e.DedupKey(), e.TransactionType, e.TransactionID, e.Status, e.Payload)
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			return fmt.Errorf("storage: record provider event: %w", err)
		}
		if len(ids) == 0 {
			return tx.QueryRow(ctx, `SELECT id FROM provider_events WHERE dedup_key = $1`, e.DedupKey()).Scan(&id)
		}
		id, stored = ids[0], true
		return writeOutbox(ctx, tx, outbox(id))
	})
	return id, stored, err
}

const eventColumns = `id, transaction_type, transaction_id, status, payload, received_at, processed_at, outcome`

func scanEvent(r pgx.CollectableRow) (ProviderEvent, error) {
	var e ProviderEvent
	err := r.Scan(&e.ID, &e.TransactionType, &e.TransactionID, &e.Status, &e.Payload, &e.ReceivedAt, &e.ProcessedAt, &e.Outcome)
	return e, err
}

// ProviderEventByID returns one stored notification.
func (db *DB) ProviderEventByID(ctx context.Context, id int64) (ProviderEvent, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+eventColumns+` FROM provider_events WHERE id = $1`, id)
	e, err := pgx.CollectExactlyOneRow(rows, scanEvent)
	return e, notFound(err)
}

// MarkEventProcessed records how a notification was handled. In a Tx, so
// that it commits with the state change it caused.
func (t *Tx) MarkEventProcessed(ctx context.Context, id int64, outcome string) error {
	_, err := t.tx.Exec(ctx, `UPDATE provider_events SET processed_at = now(), outcome = $2 WHERE id = $1 AND processed_at IS NULL`, id, outcome)
	return err
}

// UnprocessedEvents returns notifications received more than olderThan ago
// and still not processed: their task was lost (e.g. with Redis).
func (db *DB) UnprocessedEvents(ctx context.Context, olderThan time.Duration, limit int) ([]ProviderEvent, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+eventColumns+` FROM provider_events
		WHERE processed_at IS NULL AND received_at < now() - $1::interval ORDER BY id LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanEvent)
}
