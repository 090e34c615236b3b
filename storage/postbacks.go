package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Postback is a notification to an integrator and its delivery state.
type Postback struct {
	ID             uuid.UUID
	IntegratorID   int64
	ResourceType   string
	ResourceID     uuid.UUID
	Event          string
	URL            string
	Body           []byte
	Status         PostbackStatus
	Attempts       int
	NextAttemptAt  *time.Time
	LastStatusCode *int
	LastError      *string
	CreatedAt      time.Time
	DeliveredAt    *time.Time
}

// PostbackAttempt is one recorded delivery attempt.
type PostbackAttempt struct {
	Attempt    int
	StatusCode *int // nil when no response arrived
	Latency    time.Duration
	Error      *string
	CreatedAt  time.Time
}

// PostbackOutcome is what an attempt means for the postback.
type PostbackOutcome string

// Outcomes of an attempt.
const (
	OutcomeDelivered PostbackOutcome = "delivered" // → DELIVERED
	OutcomeRetry     PostbackOutcome = "retry"     // stays PENDING until NextAttemptAt
	OutcomeStopped   PostbackOutcome = "stopped"   // → STOPPED
	OutcomeFailed    PostbackOutcome = "failed"    // → FAILED
)

// PostbackAttemptResult is one attempt to record.
type PostbackAttemptResult struct {
	StatusCode    int // 0 when no response arrived
	Latency       time.Duration
	Err           string // empty when none
	Outcome       PostbackOutcome
	NextAttemptAt *time.Time // required with OutcomeRetry
	// OutboxDone is the delivering task's id: its outbox row is deleted
	// with the attempt's record.
	OutboxDone string
}

const postbackColumns = `id, integrator_id, resource_type, resource_id, event, url, body, status, attempts,
	next_attempt_at, last_status_code, last_error, created_at, delivered_at`

func scanPostback(r pgx.CollectableRow) (Postback, error) {
	var p Postback
	err := r.Scan(&p.ID, &p.IntegratorID, &p.ResourceType, &p.ResourceID, &p.Event, &p.URL, &p.Body, &p.Status, &p.Attempts,
		&p.NextAttemptAt, &p.LastStatusCode, &p.LastError, &p.CreatedAt, &p.DeliveredAt)
	return p, err
}

// PostbackForDelivery returns a postback with its integrator's signing
// secret, in one query: what a delivery attempt needs.
func (db *DB) PostbackForDelivery(ctx context.Context, id uuid.UUID) (Postback, string, error) {
	var (
		p      Postback
		secret string
		found  bool
	)
	err := db.pipeline(ctx, func(b *pgx.Batch) {
		queueOne(b, &p, &found, func(r pgx.CollectableRow) (Postback, error) {
			var p Postback
			err := r.Scan(&p.ID, &p.IntegratorID, &p.ResourceType, &p.ResourceID, &p.Event, &p.URL, &p.Body, &p.Status, &p.Attempts,
				&p.NextAttemptAt, &p.LastStatusCode, &p.LastError, &p.CreatedAt, &p.DeliveredAt, &secret)
			return p, err
		}, `SELECT `+qualified("p", postbackColumns)+`, i.webhook_secret
		FROM postbacks p JOIN integrators i ON i.id = p.integrator_id WHERE p.id = $1`, id)
	})
	switch {
	case err != nil:
		return Postback{}, "", err
	case !found:
		return Postback{}, "", ErrNotFound
	}
	return p, secret, nil
}

// Postback returns one postback by id, whoever owns it (for workers and
// operators).
func (db *DB) Postback(ctx context.Context, id uuid.UUID) (Postback, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+postbackColumns+` FROM postbacks WHERE id = $1`, id)
	p, err := pgx.CollectExactlyOneRow(rows, scanPostback)
	return p, notFound(err)
}

// PostbackAttempts returns a postback's attempts, first first.
func (db *DB) PostbackAttempts(ctx context.Context, id uuid.UUID) ([]PostbackAttempt, error) {
	rows, _ := db.pool.Query(ctx, `SELECT attempt, status_code, latency_ms, error, created_at
		FROM postback_attempts WHERE postback_id = $1 ORDER BY attempt`, id)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PostbackAttempt, error) {
		var (
			a  PostbackAttempt
			ms int64
		)
		err := r.Scan(&a.Attempt, &a.StatusCode, &ms, &a.Error, &a.CreatedAt)
		a.Latency = time.Duration(ms) * time.Millisecond
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: postback attempts: %w", err)
	}
	return list, nil
}

// ErrBadOutcome: RecordPostbackAttempt was given an outcome it does not know,
// or a retry without its time.
var ErrBadOutcome = errors.New("storage: postback outcome unknown or retry without a time")

// recordAttemptSQL is RecordPostbackAttempt in one statement: the row is
// locked first (cur), so concurrent attempts get distinct numbers and see
// each other's outcome; the attempt and the new state are written only
// while it is PENDING, and otherwise the row is returned as it is.
var recordAttemptSQL = `
WITH ` + consumeOutbox("$7") + `, cur AS (
  SELECT ` + postbackColumns + ` FROM postbacks WHERE id = $1 FOR UPDATE
), a AS (
  INSERT INTO postback_attempts (postback_id, attempt, status_code, latency_ms, error)
  SELECT cur.id, cur.attempts + 1, $2, $6, $3 FROM cur WHERE cur.status = 'PENDING'
), u AS (
  UPDATE postbacks p SET attempts = cur.attempts + 1, last_status_code = $2, last_error = $3, status = $4, next_attempt_at = $5,
    delivered_at = CASE WHEN $4 = 'DELIVERED' THEN now() ELSE p.delivered_at END
  FROM cur WHERE p.id = cur.id AND cur.status = 'PENDING'
  RETURNING ` + qualified("p", postbackColumns) + `
)
SELECT * FROM u
UNION ALL
SELECT ` + postbackColumns + ` FROM cur WHERE cur.status <> 'PENDING'`

// RecordPostbackAttempt records one attempt and its consequence in one
// statement (one round trip, its own transaction): the attempt row
// (numbered attempts+1) and the postback's new state. A postback that is no
// longer PENDING (another attempt delivered, stopped or failed it
// meanwhile) is returned unchanged and nothing is recorded: a final status
// is never undone by a late attempt.
func (db *DB) RecordPostbackAttempt(ctx context.Context, id uuid.UUID, res PostbackAttemptResult) (Postback, error) {
	status, ok := outcomeStatus[res.Outcome]
	if !ok || (res.Outcome == OutcomeRetry) != (res.NextAttemptAt != nil) {
		return Postback{}, ErrBadOutcome
	}
	var (
		p     Postback
		found bool
	)
	err := db.pipeline(ctx, func(b *pgx.Batch) {
		queueOne(b, &p, &found, scanPostback, recordAttemptSQL, id, nullIfZero(res.StatusCode), nullIfEmpty(res.Err), status,
			res.NextAttemptAt, res.Latency.Milliseconds(), res.OutboxDone)
	})
	switch {
	case err != nil:
		return Postback{}, fmt.Errorf("storage: postback %s: %w", id, err)
	case !found:
		return Postback{}, fmt.Errorf("storage: postback %s: %w", id, ErrNotFound)
	}
	return p, nil
}

// qualified prefixes every column of a comma-separated list with table.
func qualified(table, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = table + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

func nullIfZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ListPostbacks returns an integrator's latest postbacks, newest first.
func (db *DB) ListPostbacks(ctx context.Context, integratorID int64, limit int) ([]Postback, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+postbackColumns+` FROM postbacks WHERE integrator_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, integratorID, limit)
	list, err := pgx.CollectRows(rows, scanPostback)
	if err != nil {
		return nil, fmt.Errorf("storage: list postbacks: %w", err)
	}
	return list, nil
}

// RedeliverPostback puts a postback back to PENDING, due now, and writes the
// outbox message that delivers it, in one transaction. Any status may be
// redelivered: an integrator that lost a DELIVERED postback can have it
// again (it carries the same webhook-id). msg must have a TaskID not used
// before for this postback (tasks.PostbackDeliverMessage(id, attempts+1)),
// or the queue would take it for a duplicate.
func (db *DB) RedeliverPostback(ctx context.Context, id uuid.UUID, msg OutboxMessage) (Postback, error) {
	var p Postback
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `UPDATE postbacks SET status = 'PENDING', next_attempt_at = now(), delivered_at = NULL
			WHERE id = $1 RETURNING `+postbackColumns, id)
		var err error
		if p, err = pgx.CollectExactlyOneRow(rows, scanPostback); err != nil {
			return fmt.Errorf("storage: redeliver postback %s: %w", id, notFound(err))
		}
		return writeOutbox(ctx, tx, msg)
	})
	return p, err
}

// RedriveOverduePostback is RedeliverPostback for the reconciler: it acts
// only if the postback is still PENDING and more than olderThan late, so a
// postback that a late task delivered (or failed) between the reconciler's
// scan and this call is left alone. redriven is false when nothing changed.
func (db *DB) RedriveOverduePostback(ctx context.Context, id uuid.UUID, olderThan time.Duration, msg OutboxMessage) (redriven bool, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE postbacks SET next_attempt_at = now()
			WHERE id = $1 AND status = 'PENDING' AND next_attempt_at < now() - make_interval(secs => $2)
			AND NOT `+endpointHeld, id, olderThan.Seconds())
		if err != nil {
			return fmt.Errorf("storage: redrive postback %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		redriven = true
		return writeOutbox(ctx, tx, msg)
	})
	return redriven, err
}

// OverduePostbacks returns PENDING postbacks whose next attempt is more than
// olderThan late, oldest first, except those of a paused or disabled
// endpoint (they wait for its resume): their queued retry was lost (Redis lost its
// data, or the task ran out of queue retries), and the reconciler re-drives
// them from here.
func (db *DB) OverduePostbacks(ctx context.Context, olderThan time.Duration, limit int) ([]Postback, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+postbackColumns+` FROM postbacks
		WHERE status = 'PENDING' AND next_attempt_at < now() - make_interval(secs => $1) AND NOT `+endpointHeld+`
		ORDER BY next_attempt_at LIMIT $2`, olderThan.Seconds(), limit)
	list, err := pgx.CollectRows(rows, scanPostback)
	if err != nil {
		return nil, fmt.Errorf("storage: overdue postbacks: %w", err)
	}
	return list, nil
}
