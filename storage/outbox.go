package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// OutboxMessage asks for one task. It is written in the same SQL
// transaction as the state change that needs the task, and the relay turns it
// into a queued task. TaskID is unique: writing the same message twice is a
// no-op, and the queue refuses a second task with the same id.
type OutboxMessage struct {
	TaskType string
	TaskID   string
	Payload  []byte // JSON
}

// PendingOutbox is an outbox row not yet handed to the queue.
type PendingOutbox struct {
	ID int64
	OutboxMessage
	CreatedAt time.Time
	Attempts  int
}

func writeOutbox(ctx context.Context, tx pgx.Tx, msgs ...OutboxMessage) error {
	for _, m := range msgs {
		if _, err := tx.Exec(ctx, `INSERT INTO outbox (task_type, task_id, payload) VALUES ($1, $2, $3)
			ON CONFLICT (task_id) DO NOTHING`, m.TaskType, m.TaskID, m.Payload); err != nil {
			return fmt.Errorf("storage: outbox: %w", err)
		}
	}
	return nil
}
