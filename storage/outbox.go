package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// OutboxMessage asks for one task. It is written in the same SQL
// transaction as the state change that needs the task, and the relay turns it
// into a queued task. ID, the task id, is unique: writing the same message
// twice is a no-op, and the queue refuses a second task with the same id.
// Its fields are those of tasks.Message, so one converts to the other.
type OutboxMessage struct {
	Type    string // task type
	ID      string // task id
	Payload []byte // JSON
}

// PendingOutbox is an outbox row not yet handed to the queue.
type PendingOutbox struct {
	OutboxID int64
	OutboxMessage
	CreatedAt time.Time
	Attempts  int
}

// outboxChannel is the NOTIFY channel that wakes the relays when a
// transaction that wrote outbox rows has committed.
const outboxChannel = "pixgate_outbox"

func writeOutbox(ctx context.Context, tx pgx.Tx, msgs ...OutboxMessage) error {
	for _, m := range msgs {
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (task_type, task_id, payload) VALUES ($1, $2, $3)
			ON CONFLICT (task_id) DO NOTHING`, m.Type, m.ID, m.Payload); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
	}
	if len(msgs) > 0 {
		markOutbox(tx) // the relays are woken after commit (notify.go)
	}
	return nil
}

// outboxColumns are msgs as the columns of an unnest: task types, task
// ids, JSON payloads.
func outboxColumns(msgs []OutboxMessage) (types, ids, payloads []string) {
	for _, m := range msgs {
		types, ids, payloads = append(types, m.Type), append(ids, m.ID), append(payloads, string(m.Payload))
	}
	return types, ids, payloads
}

// RelayOutbox claims up to limit unsent outbox rows (skipping rows another
// relay holds), calls enqueue for each, and marks the ones it enqueued as
// sent, all in one transaction. A row whose enqueue fails stays unsent, with
// the error kept, and is tried again on a later call. It returns how many
// rows were sent.
func (db *DB) RelayOutbox(ctx context.Context, limit int, enqueue func(context.Context, PendingOutbox) error) (sent int, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT id, task_type, task_id, payload, created_at, attempts FROM outbox
			WHERE enqueued_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
		pending, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PendingOutbox, error) {
			var p PendingOutbox
			err := r.Scan(&p.OutboxID, &p.Type, &p.ID, &p.Payload, &p.CreatedAt, &p.Attempts)
			return p, err
		})
		if err != nil {
			return fmt.Errorf("storage: claim outbox: %w", err)
		}
		var done []int64
		for _, p := range pending {
			if err := enqueue(ctx, p); err != nil {
				if _, err := tx.Exec(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, p.OutboxID, err.Error()); err != nil {
					return fmt.Errorf("storage: outbox attempt: %w", err)
				}
				continue
			}
			done = append(done, p.OutboxID)
		}
		if len(done) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE outbox SET enqueued_at = now(), attempts = attempts + 1, last_error = NULL
				WHERE id = ANY($1)`, done); err != nil {
				return fmt.Errorf("storage: mark outbox sent: %w", err)
			}
		}
		sent = len(done)
		return nil
	})
	return sent, err
}

// OutboxLag is the age of the oldest unsent outbox row (zero when none).
func (db *DB) OutboxLag(ctx context.Context) (time.Duration, error) {
	var lag float64
	err := db.pool.QueryRow(ctx, `SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0) FROM outbox WHERE enqueued_at IS NULL`).Scan(&lag)
	return time.Duration(lag * float64(time.Second)), err
}

// ListenOutbox sends on the returned channel (without blocking, coalescing)
// whenever a transaction that wrote outbox rows commits. It holds one
// connection, reconnects after failures, and stops when ctx ends. Callers
// still poll now and then: a notification can be missed while reconnecting.
func (db *DB) ListenOutbox(ctx context.Context) <-chan struct{} {
	wake := make(chan struct{}, 1)
	notify := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	go func() {
		for ctx.Err() == nil {
			_ = db.listenOn(ctx, outboxChannel, notify)
			db.retryWait(ctx)
		}
	}()
	return wake
}

// listenOn calls notify once it listens on channel, then on every
// notification, until its connection fails or ctx ends.
func (db *DB) listenOn(ctx context.Context, channel string, notify func()) error {
	pooled, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection carries LISTEN state: it never goes back to the pool.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	notify() // whatever happened while not listening
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		notify()
	}
}

// retryWait is the pause before a listener connects again.
func (db *DB) retryWait(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
