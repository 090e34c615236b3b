package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// staleTransfers is what the reconciler needs of one kind of transfer
// beyond its transferKind: the stale ones, how to queue one never sent,
// how to move one to the back of the queue and how to send one again.
type staleTransfers[T any] struct {
	transferKind[T]
	list    func(context.Context, time.Duration, int) ([]T, error)
	redrive func(context.Context, uuid.UUID, storage.OutboxMessage) error
	message func(uuid.UUID, int) tasks.Message
	touch   func(context.Context, uuid.UUID) error
	resend  func(context.Context, T) (string, error)
}

// reconcileWithdrawals and reconcileRefunds send again transfers that were
// never sent, and ask the provider about the others. A transfer that
// fails is touched, so that it goes to the back of the queue instead of
// heading every batch.
func (w *Worker) reconcileWithdrawals(ctx context.Context, slot int64) error {
	db := w.deps.DB
	return reconcileTransfers(ctx, w, slot, staleTransfers[storage.Withdrawal]{transferKind: w.withdrawals(),
		list: db.StaleWithdrawals, redrive: db.RedriveWithdrawal, message: tasks.WithdrawalSendMessage,
		touch: db.TouchWithdrawal, resend: w.sendPayment})
}

func (w *Worker) reconcileRefunds(ctx context.Context, slot int64) error {
	db := w.deps.DB
	return reconcileTransfers(ctx, w, slot, staleTransfers[storage.Refund]{transferKind: w.refunds(),
		list: db.StaleRefunds, redrive: db.RedriveRefund, message: tasks.RefundSendMessage,
		touch: db.TouchRefund, resend: w.resendRefund})
}

func reconcileTransfers[T any](ctx context.Context, w *Worker, slot int64, s staleTransfers[T]) error {
	stale, err := s.list(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	id := func(rec T) uuid.UUID { id, _ := s.ident(rec); return id }
	return forEach(ctx, w, s.what+"s", stale, func(rec T) string { return id(rec).String() },
		func(rec T) error {
			if _, pixID := s.ident(rec); pixID == nil {
				return s.redrive(ctx, id(rec), storage.OutboxMessage(s.message(id(rec), int(slot))))
			}
			touch := func() error { return s.touch(ctx, id(rec)) }
			return consultTransfer(ctx, w, s.transferKind, rec, touch, func() (string, error) { return s.resend(ctx, rec) })
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
