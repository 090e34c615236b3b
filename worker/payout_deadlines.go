package worker

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// deadlineStore is what the payout deadline step reads and writes;
// *storage.DB is one. A store without it (the decision tests' fakes) has
// no deadlines.
type deadlineStore interface {
	DueDeadlineNotices(ctx context.Context, now time.Time, limit int) ([]storage.Transfer, error)
	NoteDeadline(ctx context.Context, id uuid.UUID, late bool, build func(storage.Transfer) *storage.NewPostback) (bool, error)
}

// notifyDeadlines writes, once each, the postback of a withdrawal still
// PROCESSING that nears its payout deadline (DEADLINE_NEAR) and of one
// that passes it (LATE; a withdrawal found past it at once gets LATE
// alone), with its record, in one transaction (storage.NoteDeadline).
func (w *Worker) notifyDeadlines(ctx context.Context, _ int64) error {
	d, ok := w.postbacks.(deadlineStore)
	if !ok {
		return nil
	}
	now := w.now()
	due, err := d.DueDeadlineNotices(ctx, now, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "payout deadlines", due, func(t storage.Transfer) string { return t.ID.String() },
		func(t storage.Transfer) error {
			late := !now.Before(*t.DueAt)
			_, err := d.NoteDeadline(ctx, t.ID, late, func(cur storage.Transfer) *storage.NewPostback {
				ev, ok := postback.ForDeadline(cur, late)
				if !ok {
					return nil
				}
				p := postback.NewPostback(ev)
				p.Outbox = storage.OutboxMessage(tasks.Traced(ctx, tasks.Message(p.Outbox)))
				return &p
			})
			return err
		})
}
