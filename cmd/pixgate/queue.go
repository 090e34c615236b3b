package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// enqueueTimeout bounds the hand-off of one commit's outbox messages to the
// queue; what does not make it is queued by the relay.
const enqueueTimeout = 2 * time.Second

// enqueueAfterCommit queues the outbox messages of every commit of db at
// once (storage.EnqueueAfterCommit), on the process's Redis: the task
// starts without waiting for the relay, which is left with what this
// misses.
func enqueueAfterCommit(db *storage.DB, q *tasks.Queue, log *slog.Logger) {
	db.EnqueueAfterCommit(func(ctx context.Context, msgs []storage.OutboxMessage) {
		ctx, cancel := context.WithTimeout(ctx, enqueueTimeout)
		defer cancel()
		for _, m := range msgs {
			if err := q.Enqueue(ctx, tasks.Message(m)); err != nil {
				log.Debug("task left to the outbox relay", "task_id", m.ID, "err", err)
			}
		}
	})
}
