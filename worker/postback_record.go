package worker

import (
	"context"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// writePostback writes the postback of a state change in the change's own
// transaction; nil means the record has no postback URL.
func writePostback(ctx context.Context, tx Tx, ev *postback.Event) error {
	if ev == nil {
		return nil
	}
	p := postback.NewPostback(*ev)
	p.Outbox = storage.OutboxMessage(tasks.Traced(ctx, tasks.Message(p.Outbox))) // its delivery joins the change's trace
	return tx.WritePostback(ctx, p)
}

func chargePostback(c storage.Charge) *postback.Event { return optional(postback.ForCharge(c)) }

// transferPostback needs nothing beyond the transfer: a refund carries its
// charge's pix_id, read with it in the transaction that changed it (a read
// through the pool would need a second connection while this one holds
// the charge's and the wallet's locks).
func transferPostback(t storage.Transfer) *postback.Event { return optional(postback.ForTransfer(t)) }

func optional(ev postback.Event, ok bool) *postback.Event {
	if !ok {
		return nil
	}
	return &ev
}

// redrivePostbacks delivers again postbacks whose queued retry was lost:
// PENDING, and late by more than StaleAfter.
func (w *Worker) redrivePostbacks(ctx context.Context, slot int64) error {
	overdue, err := w.postbacks.OverduePostbacks(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "postbacks", overdue, func(p storage.Postback) string { return p.ID.String() },
		func(p storage.Postback) error {
			m := tasks.PostbackDeliverMessage(p.ID, int(slot))
			// Only if still PENDING and still late: a task delivering it right
			// now must not be undone.
			_, err := w.postbacks.RedriveOverduePostback(ctx, p.ID, w.cfg.Reconcile.StaleAfter, storage.OutboxMessage(m))
			return err
		})
}
