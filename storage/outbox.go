package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// OutboxMessage asks for one task. It is written in the same SQL
// transaction as the state change that needs the task, queued right after
// that commit (aftercommit.go) or else by the relay, and deleted by the
// task's handler in its own commit. ID, the task id, is unique: writing the
// same message twice is a no-op, and the queue refuses a second task with
// the same id.
// Its fields are those of tasks.Message, so one converts to the other.
type OutboxMessage struct {
	Type    string // task type
	ID      string // task id
	Payload []byte // JSON
}

// PendingOutbox is an outbox row the relay hands to the queue.
type PendingOutbox struct {
	OutboxID int64
	OutboxMessage
	CreatedAt time.Time
	Attempts  int
}

func writeOutbox(ctx context.Context, tx pgx.Tx, msgs ...OutboxMessage) error {
	for _, m := range msgs {
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (task_type, task_id, payload) VALUES ($1, $2, $3)
			ON CONFLICT (task_id) DO NOTHING`, m.Type, m.ID, m.Payload); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
	}
	markOutbox(tx, msgs...) // queued after commit (aftercommit.go)
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

// RelayOutbox claims up to limit outbox rows older than olderThan that no
// relay has queued and no task has consumed (skipping rows another relay
// holds), calls enqueue for each, and marks the ones it enqueued as sent,
// all in one transaction. Rows are queued right after their commit, so
// the relay only finds what that hand-off missed, or tasks still waiting
// in the queue (enqueue then finds their id taken: success). A row whose
// enqueue fails stays unsent, with the error kept, and is tried again on a
// later call. It returns how many rows were sent.
func (db *DB) RelayOutbox(ctx context.Context, olderThan time.Duration, limit int, enqueue func(context.Context, PendingOutbox) error) (sent int, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT id, task_type, task_id, payload, created_at, attempts FROM outbox
			WHERE enqueued_at IS NULL AND created_at < now() - $2::interval ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit, olderThan)
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

// OutboxLag is how late the relay is: how long the oldest outbox row that
// no relay queued and no task consumed has waited past olderThan, the
// relay's delay (zero when none has).
func (db *DB) OutboxLag(ctx context.Context, olderThan time.Duration) (time.Duration, error) {
	var lag float64
	err := db.pool.QueryRow(ctx, `SELECT coalesce(extract(epoch FROM now() - $1::interval - min(created_at)), 0) FROM outbox
		WHERE enqueued_at IS NULL AND created_at < now() - $1::interval`, olderThan).Scan(&lag)
	return time.Duration(max(lag, 0) * float64(time.Second)), err
}

// consumeOutbox is a CTE that deletes the outbox row of the task id in
// argument arg, a statement's way of saying that its task ran; a task with
// no outbox row (or "") deletes nothing.
func consumeOutbox(arg string) string {
	return `consumed AS (DELETE FROM outbox WHERE task_id = ` + arg + `)`
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
