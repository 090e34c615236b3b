package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RedeliverEndpointPostbackRange is RedeliverPostbackRange for the
// postbacks of one of the integrator's endpoints (url) only: the
// console's replay of an endpoint, which should not send its other URLs
// what they already had.
func (db *DB) RedeliverEndpointPostbackRange(ctx context.Context, integratorID int64, url string, since, until time.Time, most int,
	msg func(Postback) OutboxMessage) (n int, err error) {
	if url == "" {
		return 0, fmt.Errorf("storage: redeliver an endpoint's postbacks: no URL")
	}
	return db.redeliverRange(ctx, integratorID, url, since, until, most, msg)
}

// redeliverRange puts back PENDING, and queues, every postback of the
// integrator created in [since, until), those to url only unless url is
// "", when there are at most most of them (ErrTooManyPostbacks
// otherwise, nothing changed).
func (db *DB) redeliverRange(ctx context.Context, integratorID int64, url string, since, until time.Time, most int,
	msg func(Postback) OutboxMessage) (n int, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		// The count first, bounded, so a range too large costs no update.
		var count int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT FROM postbacks WHERE integrator_id = $1
			AND created_at >= $2 AND created_at < $3 AND ($5::text = '' OR url = $5) LIMIT $4) r`,
			integratorID, since, until, most+1, url).Scan(&count); err != nil {
			return fmt.Errorf("storage: redeliver postbacks: %w", err)
		}
		if count > most {
			return ErrTooManyPostbacks
		}
		rows, _ := tx.Query(ctx, `UPDATE postbacks SET status = 'PENDING', next_attempt_at = now(), delivered_at = NULL
			WHERE integrator_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::text = '' OR url = $4)
			RETURNING `+postbackColumns, integratorID, since, until, url)
		list, err := pgx.CollectRows(rows, scanPostback)
		if err != nil {
			return fmt.Errorf("storage: redeliver postbacks: %w", err)
		}
		msgs := make([]OutboxMessage, len(list))
		for i, p := range list {
			msgs[i] = msg(p)
		}
		n = len(msgs)
		// One statement for them all: a range may hold thousands.
		types, ids, payloads := outboxColumns(msgs)
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (task_type, task_id, payload)
			SELECT t, i, p::jsonb FROM unnest($1::text[], $2::text[], $3::text[]) AS m(t, i, p) ON CONFLICT (task_id) DO NOTHING`,
			types, ids, payloads); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
		markOutbox(tx, msgs...)
		return nil
	})
	return n, err
}
