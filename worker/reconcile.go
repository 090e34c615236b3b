package worker

import (
	"context"
	"errors"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// ReconcileConfig says when the reconciler looks again at what a lost
// message may have left behind.
type ReconcileConfig struct {
	// Interval between ticks; the tick of a slot runs once whatever the
	// number of workers. Default 30s.
	Interval time.Duration
	// StaleAfter is how long a withdrawal or refund may stay PROCESSING
	// without news, or a notification unprocessed, or a charge unissued,
	// before the reconciler asks the provider. Default 2m.
	StaleAfter time.Duration
	// ExpiryGrace is how long after a charge's expiry the provider is asked
	// whether it was paid. Default 1m.
	ExpiryGrace time.Duration
	// Batch caps the records of each kind looked at per tick. Default 100.
	Batch int
}

func (c ReconcileConfig) withDefaults() ReconcileConfig {
	if c.Interval <= 0 {
		c.Interval = 30 * time.Second
	}
	if c.StaleAfter <= 0 {
		c.StaleAfter = 2 * time.Minute
	}
	if c.ExpiryGrace <= 0 {
		c.ExpiryGrace = time.Minute
	}
	if c.Batch <= 0 {
		c.Batch = 100
	}
	return c
}

// reconcile is one tick. Each step re-drives from Postgres, the source of
// truth, so nothing depends on what Redis still holds; each action is
// idempotent, so a tick that overlaps a late task or another tick is
// harmless. A failing step is logged and the next one still runs.
func (w *Worker) reconcile(ctx context.Context, t *asynq.Task) error {
	var p tasks.ReconcileTick
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	steps := []struct {
		name string
		run  func(context.Context, int64) error
	}{
		{"provider events", w.redriveEvents},
		{"withdrawals", w.reconcileWithdrawals},
		{"refunds", w.reconcileRefunds},
		{"expired charges", w.reconcileExpiredCharges},
		{"unissued charges", w.reconcileUnissuedCharges},
		{"postbacks", w.redrivePostbacks},
	}
	for _, s := range steps {
		if err := s.run(ctx, p.Slot); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.log.Warn("reconcile step failed", "step", s.name, "err", err)
		}
	}
	return nil
}

// redriveEvents re-enqueues notifications whose task was lost.
func (w *Worker) redriveEvents(ctx context.Context, slot int64) error {
	events, err := w.deps.DB.UnprocessedEvents(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, ev := range events {
		if err := w.enqueueNow(ctx, tasks.ProviderEventMessage(ev.ID, int(slot))); err != nil {
			return err
		}
	}
	return nil
}

// reconcileWithdrawals sends again withdrawals that were never sent, and
// asks the provider about the others.
func (w *Worker) reconcileWithdrawals(ctx context.Context, slot int64) error {
	stale, err := w.deps.DB.StaleWithdrawals(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, wd := range stale {
		if wd.PixID == nil {
			m := tasks.WithdrawalSendMessage(wd.ID, int(slot))
			if err := w.deps.DB.RedriveWithdrawal(ctx, wd.ID, storage.OutboxMessage(m)); err != nil {
				return err
			}
			continue
		}
		if err := w.consultAndApply(ctx, *wd.PixID, func() error { return w.deps.DB.TouchWithdrawal(ctx, wd.ID) }); err != nil {
			return err
		}
	}
	return nil
}

// reconcileRefunds asks the provider about refunds without news.
func (w *Worker) reconcileRefunds(ctx context.Context, _ int64) error {
	stale, err := w.deps.DB.StaleRefunds(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, f := range stale {
		touch := func() error { return w.deps.DB.TouchRefund(ctx, f.ID) }
		if f.PixID == nil {
			w.log.Warn("refund PROCESSING without a provider transaction", "refund_id", f.ID)
			if err := touch(); err != nil {
				return err
			}
			continue
		}
		if err := w.consultAndApply(ctx, *f.PixID, touch); err != nil {
			return err
		}
	}
	return nil
}

// reconcileExpiredCharges asks the provider about charges past their
// expiry: paid ones are credited (their notification was lost), unpaid ones
// become EXPIRED.
func (w *Worker) reconcileExpiredCharges(ctx context.Context, _ int64) error {
	charges, err := w.deps.DB.ExpiredCharges(ctx, w.cfg.Reconcile.ExpiryGrace, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, c := range charges {
		txn, err := w.deps.Provider.ConsultTransaction(ctx, *c.PixID)
		if err != nil {
			return err
		}
		if txn.Status != statusPaid {
			txn.Status = statusExpired // unpaid, past its expiry: the provider confirms it
		}
		if _, err := w.applyConfirmed(ctx, txn, nil); err != nil {
			return err
		}
	}
	return nil
}

// reconcileUnissuedCharges fails charges whose creating request died before
// the provider's answer was stored. Nobody saw their QR code; a retry with
// the same external_id asks the provider again.
func (w *Worker) reconcileUnissuedCharges(ctx context.Context, _ int64) error {
	charges, err := w.deps.DB.UnissuedCharges(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	for _, c := range charges {
		if _, err := w.deps.DB.FailCharge(ctx, c.ID, "issuance was interrupted; retry with the same external_id"); err != nil &&
			!errors.Is(err, storage.ErrStateChanged) {
			return err
		}
	}
	return nil
}

// consultAndApply applies what the provider says of a transaction; when
// that changes nothing, touch moves the record to the back of the queue.
func (w *Worker) consultAndApply(ctx context.Context, pixID string, touch func() error) error {
	txn, err := w.deps.Provider.ConsultTransaction(ctx, pixID)
	if errors.Is(err, providerclient.ErrNotFound) {
		w.log.Error("provider does not know a transaction PixGate sent", "pix_id", pixID)
		return touch()
	}
	if err != nil {
		return err
	}
	if txn.TransactionID == "" {
		txn.TransactionID = pixID
	}
	if txn.Status != statusCompleted && txn.Status != statusFailed {
		return touch()
	}
	_, err = w.applyConfirmed(ctx, txn, nil)
	return err
}

// enqueueNow puts a task on the queue directly; a task id already there
// means it is queued.
func (w *Worker) enqueueNow(ctx context.Context, m tasks.Message) error {
	task, err := m.Task()
	if err != nil {
		return err
	}
	_, err = w.client.EnqueueContext(ctx, task)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	return err
}
