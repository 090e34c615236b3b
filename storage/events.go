package storage

import (
	"cmp"
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
	// Provider is the provider that sent it ("" for one stored before
	// events named their provider: the default one's);
	// ExternalID PixGate's own id of the transaction, when the contract's
	// notification names it.
	Provider    string
	ExternalID  string
	Payload     []byte // the body exactly as received
	ReceivedAt  time.Time
	ProcessedAt *time.Time
	Outcome     *string
	// Confirmed: the provider confirmed the claimed status and PixGate's
	// record is in it. Only a confirmed event makes later copies duplicates.
	Confirmed bool
	// BorneOut: the provider's answer had the claimed type and status,
	// whatever PixGate's record did with it (see RecordProviderEvent).
	BorneOut bool
}

// NewProviderEvent is a received notification: its claim, parsed, and its
// body, kept as it came.
type NewProviderEvent struct {
	TransactionType string
	TransactionID   string
	Status          string
	Payload         []byte
	// Provider is the provider whose webhook path it came to ("" or
	// "default": the default provider); ExternalID PixGate's own id of
	// the transaction, when the notification names it.
	Provider   string
	ExternalID string
}

// CoalesceWindow is how long after a consult that bore a claim out
// (BorneOut) further copies of that claim are acknowledged without being
// stored: the provider was asked moments ago and agreed.
const CoalesceWindow = 30 * time.Second

// RecordProviderEvent stores a notification with the outbox message that
// processes it (built by outbox from the new event's id), unless an earlier
// copy of the same claim (type, transaction and status) makes it
// redundant: then stored is false, id is that copy's, and nothing is
// written. An earlier copy does when it was confirmed and applied; when it
// is queued and no worker has begun consulting for it yet (its consult will
// come after this copy, so it answers for both); or when it was consulted
// within CoalesceWindow and the provider bore its claim out. A copy of a
// claim the provider refuted (an early or forged one), or whose consult is
// under way, is stored and processed on its own: it may be the genuine
// one, which the provider will bear out.
//
// Copies of one claim are recorded one after the other, under a lock on
// the claim held until the transaction ends: a storm whose copies arrive
// all at once is one event, not one per copy that looked before the first
// was written. One round trip and one implicit transaction (a pipeline,
// which may share its commit: see ShareCommits): the claim's lock, then
// one statement that looks for an earlier copy and writes the event and
// its outbox row when there is none (a statement of its own, so that it
// sees what a copy committed while this one waited for the lock). The new
// event's id is drawn beforehand from ids this process reserved
// (eventIDs), so that the outbox message can be built from it; a copy not
// stored leaves its id unused.
func (db *DB) RecordProviderEvent(ctx context.Context, e NewProviderEvent, outbox func(eventID int64) OutboxMessage) (id int64, stored bool, err error) {
	if id, err = db.eventIDs.next(ctx, db.pool); err != nil {
		return 0, false, fmt.Errorf("storage: draw a provider event id: %w", err)
	}
	m := outbox(id)
	var applied, pending *int64
	if err := db.pipeline(ctx, func(b *pgx.Batch) {
		b.Queue(`SELECT pg_advisory_xact_lock(hashtext('provider event'), hashtext($1 || ' ' || $2 || ' ' || $3))`,
			e.TransactionType, e.TransactionID, e.Status)
		b.Queue(`WITH applied AS (
			SELECT id FROM provider_events WHERE transaction_id = $2 AND transaction_type = $3 AND status = $4 AND confirmed
			AND coalesce(provider, 'default') = $10 LIMIT 1
		), pending AS (
			SELECT id FROM provider_events WHERE transaction_id = $2 AND transaction_type = $3 AND status = $4
			AND coalesce(provider, 'default') = $10
			AND (processed_at IS NULL AND picked_at IS NULL OR borne_out AND processed_at > now() - $6::interval)
			ORDER BY id DESC LIMIT 1
		), e AS (
			INSERT INTO provider_events (id, transaction_type, transaction_id, status, payload, provider, external_id)
			SELECT $1, $3, $2, $4, $5, $10, nullif($11, '')
			WHERE NOT EXISTS (SELECT FROM applied) AND NOT EXISTS (SELECT FROM pending) RETURNING id
		), o AS (
			INSERT INTO outbox (task_type, task_id, payload) SELECT $7, $8, $9::jsonb FROM e ON CONFLICT (task_id) DO NOTHING
		)
		SELECT (SELECT id FROM applied), (SELECT id FROM pending)`,
			id, e.TransactionID, e.TransactionType, e.Status, e.Payload, CoalesceWindow, m.Type, m.ID, string(m.Payload),
			cmp.Or(e.Provider, DefaultProvider), e.ExternalID).QueryRow(
			func(row pgx.Row) error { return row.Scan(&applied, &pending) })
	}); err != nil {
		return 0, false, fmt.Errorf("storage: record provider event: %w", err)
	}
	if applied != nil {
		return *applied, false, nil
	}
	if pending != nil {
		return *pending, false, nil
	}
	db.afterCommit(ctx, []OutboxMessage{m})
	return id, true, nil
}

const eventColumns = `id, transaction_type, transaction_id, status, payload, received_at, processed_at, outcome, confirmed, borne_out,
	coalesce(provider, ''), coalesce(external_id, '')`

func scanEvent(r pgx.CollectableRow) (ProviderEvent, error) {
	var e ProviderEvent
	err := r.Scan(&e.ID, &e.TransactionType, &e.TransactionID, &e.Status, &e.Payload, &e.ReceivedAt, &e.ProcessedAt, &e.Outcome,
		&e.Confirmed, &e.BorneOut, &e.Provider, &e.ExternalID)
	return e, err
}

// ProviderEventByID returns one stored notification.
func (db *DB) ProviderEventByID(ctx context.Context, id int64) (ProviderEvent, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+eventColumns+` FROM provider_events WHERE id = $1`, id)
	e, err := pgx.CollectExactlyOneRow(rows, scanEvent)
	return e, notFound(err)
}

// MarkEventProcessed records how a notification was handled: whether the
// provider bore its claim out (same type and status), and whether that
// confirmed it (see ProviderEvent.Confirmed); and deletes the outbox row of
// the task that handled it (outboxDone, its task id). In a Tx, so that it
// commits with the state change it caused; sent with the commit (later).
func (t *Tx) MarkEventProcessed(ctx context.Context, id int64, outcome string, confirmed, borneOut bool, outboxDone string) error {
	return later(ctx, t.tx, nil, `WITH `+consumeOutbox("$5")+` UPDATE provider_events SET processed_at = now(), outcome = $2, confirmed = $3, borne_out = $4
		WHERE id = $1 AND processed_at IS NULL`, id, outcome, confirmed, borneOut, outboxDone)
}

// UnprocessedEvents returns notifications received more than olderThan ago
// and still not processed: their task was lost (e.g. with Redis).
func (db *DB) UnprocessedEvents(ctx context.Context, olderThan time.Duration, limit int) ([]ProviderEvent, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+eventColumns+` FROM provider_events
		WHERE processed_at IS NULL AND received_at < now() - $1::interval ORDER BY id LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanEvent)
}
