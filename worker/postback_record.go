package worker

import (
	"context"
	"fmt"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// writePostback writes the postback of a state change in the change's own
// transaction; nil means the record has no postback URL.
func writePostback(ctx context.Context, tx *storage.Tx, ev *postback.Event) error {
	if ev == nil {
		return nil
	}
	_, err := tx.CreatePostback(ctx, postback.NewPostback(*ev))
	return err
}

func chargePostback(c storage.Charge) *postback.Event { return optional(postback.ForCharge(c)) }

func withdrawalPostback(wd storage.Withdrawal) *postback.Event {
	return optional(postback.ForWithdrawal(wd))
}

// refundPostback needs the refunded charge's pix_id for the body. It reads
// the charge in the refund's own transaction, which has locked it: a read
// through the pool would need a second connection while this one holds the
// charge's and the wallet's locks, and with every connection of the pool
// in such a transaction none would get one.
func refundPostback(ctx context.Context, tx *storage.Tx, f storage.Refund) (*postback.Event, error) {
	c, err := tx.ChargeByID(ctx, f.ChargeID)
	if err != nil {
		return nil, fmt.Errorf("refund %s: its charge: %w", f.ID, err)
	}
	chargePixID := ""
	if c.PixID != nil {
		chargePixID = *c.PixID
	}
	return optional(postback.ForRefund(f, chargePixID)), nil
}

func optional(ev postback.Event, ok bool) *postback.Event {
	if !ok {
		return nil
	}
	return &ev
}

// redrivePostbacks delivers again postbacks whose queued retry was lost:
// PENDING, and late by more than StaleAfter.
func (w *Worker) redrivePostbacks(ctx context.Context, slot int64) error {
	overdue, err := w.deps.DB.OverduePostbacks(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "postbacks", overdue, func(p storage.Postback) string { return p.ID.String() },
		func(p storage.Postback) error {
			m := tasks.PostbackDeliverMessage(p.ID, int(slot))
			// Only if still PENDING and still late: a task delivering it right
			// now must not be undone.
			_, err := w.deps.DB.RedriveOverduePostback(ctx, p.ID, w.cfg.Reconcile.StaleAfter, storage.OutboxMessage(m))
			return err
		})
}
