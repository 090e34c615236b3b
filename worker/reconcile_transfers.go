package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// reconcileWithdrawals sends again withdrawals that were never sent, and
// asks the provider about the others. A withdrawal that fails is touched,
// so that it goes to the back of the queue instead of heading every batch.
func (w *Worker) reconcileWithdrawals(ctx context.Context, slot int64) error {
	stale, err := w.deps.DB.StaleWithdrawals(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	k := w.withdrawals()
	return forEach(ctx, w, "withdrawals", stale, func(wd storage.Withdrawal) string { return wd.ID.String() },
		func(wd storage.Withdrawal) error {
			if wd.PixID == nil {
				m := tasks.WithdrawalSendMessage(wd.ID, int(slot))
				return w.deps.DB.RedriveWithdrawal(ctx, wd.ID, storage.OutboxMessage(m))
			}
			touch := func() error { return w.deps.DB.TouchWithdrawal(ctx, wd.ID) }
			return consultTransfer(ctx, w, k, wd, touch, func() (string, error) { return w.sendPayment(ctx, wd) })
		})
}

// reconcileRefunds is reconcileWithdrawals for refunds.
func (w *Worker) reconcileRefunds(ctx context.Context, slot int64) error {
	stale, err := w.deps.DB.StaleRefunds(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	k := w.refunds()
	return forEach(ctx, w, "refunds", stale, func(f storage.Refund) string { return f.ID.String() },
		func(f storage.Refund) error {
			if f.PixID == nil {
				m := tasks.RefundSendMessage(f.ID, int(slot))
				return w.deps.DB.RedriveRefund(ctx, f.ID, storage.OutboxMessage(m))
			}
			touch := func() error { return w.deps.DB.TouchRefund(ctx, f.ID) }
			return consultTransfer(ctx, w, k, f, touch, func() (string, error) { return w.resendRefund(ctx, f) })
		})
}

// consultTransfer applies what the provider says of a transfer it
// accepted. Unknown to the provider, the transfer is sent again (resend)
// or, past the bound, flagged for an operator. When nothing changes, touch
// moves it to the back of the queue.
func consultTransfer[T any](ctx context.Context, w *Worker, k transferKind[T], rec T, touch func() error, resend func() (string, error)) error {
	_, pixID := k.ident(rec)
	txn, err := w.deps.Provider.ConsultTransaction(ctx, *pixID)
	if errors.Is(err, providerclient.ErrNotFound) {
		return touchOnError(recoverUnknown(ctx, w, k, rec, resend), touch)
	}
	if err != nil {
		return touchOnError(err, touch)
	}
	if txn.TransactionID == "" {
		txn.TransactionID = *pixID
	}
	if txn.Status != contract.StatusCompleted && txn.Status != contract.StatusFailed {
		return touch()
	}
	_, err = w.applyConfirmed(ctx, txn, nil)
	return touchOnError(err, touch)
}

// recoverUnknown handles a transfer the provider accepted and no longer
// knows. It is sent again with the same external_id: a provider that still
// has it answers with it, one that lost it pays it once. A definite
// rejection fails it (its reservation returns). After MaxResends it is
// flagged for an operator instead, once, with an error line, and the
// reconciler leaves it alone.
func recoverUnknown[T any](ctx context.Context, w *Worker, k transferKind[T], rec T, resend func() (string, error)) error {
	id, pixID := k.ident(rec)
	rc, err := w.deps.DB.TransferRecovery(ctx, k.kind, id)
	if err != nil {
		return err
	}
	resends := rc.Resends
	if resends >= w.cfg.Reconcile.MaxResends {
		reason := fmt.Sprintf("the provider does not know transaction %s, after %d re-sends", *pixID, resends)
		flagged, err := w.deps.DB.FlagTransfer(ctx, k.kind, id, reason)
		if flagged {
			w.metrics.flagged(string(k.kind))
			w.log.Error(k.what+" flagged for an operator: settle or fail it with `pixgate transfer`", "id", id,
				"pix_id", *pixID, "resends", resends, "reason", reason)
		}
		return err
	}
	newPixID, err := resend()
	if errors.Is(err, providerclient.ErrRejected) {
		w.log.Warn(k.what+" unknown to the provider was rejected when sent again; it fails", "id", id, "err", err)
		failure := storage.Failure{Reason: "provider rejected the " + k.what + " when it was sent again"}
		var pe *providerclient.Error
		if errors.As(err, &pe) && pe.Message != "" {
			failure.Reason += ": " + pe.Message
		}
		return w.deps.DB.InTx(ctx, func(tx *storage.Tx) error {
			_, _, ferr := k.failing(ctx, id, failure)(tx)
			return ferr
		})
	}
	if err != nil {
		return err
	}
	w.log.Warn(k.what+" unknown to the provider was sent again with the same external_id", "id", id,
		"old_pix_id", *pixID, "pix_id", newPixID, "resend", resends+1)
	err = w.deps.DB.RecordResent(ctx, k.kind, id, *pixID, newPixID)
	if errors.Is(err, storage.ErrStateChanged) {
		return nil // finished meanwhile
	}
	return err
}

// resendRefund sends a refund to the provider, with its own id as
// external_id so that sending it again never refunds twice, and returns the
// provider's transaction id.
func (w *Worker) resendRefund(ctx context.Context, f storage.Refund) (string, error) {
	c, err := w.deps.DB.ChargeByID(ctx, f.ChargeID)
	if err != nil {
		return "", err
	}
	if c.PixID == nil {
		return "", fmt.Errorf("refund %s: charge %s has no provider transaction", f.ID, c.ID)
	}
	req := providerclient.RefundRequest{PixID: *c.PixID, Amount: f.Amount, ExternalID: f.ID.String(), PostbackURL: w.cfg.ProviderWebhookURL}
	if f.Description != nil {
		req.Description = *f.Description
	}
	r, err := w.deps.Provider.CreateRefund(ctx, req)
	if err != nil {
		return "", err
	}
	return r.TransactionID, nil
}

// countFlagged keeps the gauge of transfers waiting for an operator.
func (w *Worker) countFlagged(ctx context.Context, _ int64) error {
	if w.metrics == nil {
		return nil
	}
	withdrawals, refunds, err := w.deps.DB.CountFlaggedTransfers(ctx)
	if err != nil {
		return err
	}
	w.metrics.setFlagged(string(storage.KindWithdrawal), withdrawals)
	w.metrics.setFlagged(string(storage.KindRefund), refunds)
	return nil
}
