package worker

import (
	"context"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/postback"
)

// transferKind describes a transfer (withdrawal or refund) for
// applyTransfer, the reconciler and operator resolutions: both finish the
// same way, COMPLETED or FAILED.
type transferKind[T any] struct {
	what     string // "withdrawal", "refund"
	kind     storage.TransferKind
	byID     func(context.Context, uuid.UUID) (T, error)
	byPixID  func(context.Context, string) (T, error)
	ident    func(T) (uuid.UUID, *string)
	status   func(T) string
	complete func(*storage.Tx, context.Context, uuid.UUID, storage.Settlement) (T, bool, error)
	fail     func(*storage.Tx, context.Context, uuid.UUID, storage.Failure) (T, bool, error)
	// postback is the event of the status the transfer reached, built in
	// the transaction that changed it.
	postback func(context.Context, *storage.Tx, T) (*postback.Event, error)
}

func withdrawalKind(db *storage.DB) transferKind[storage.Withdrawal] {
	return transferKind[storage.Withdrawal]{
		what: "withdrawal", kind: storage.KindWithdrawal, byID: db.WithdrawalByID, byPixID: db.WithdrawalByPixID,
		ident:    func(wd storage.Withdrawal) (uuid.UUID, *string) { return wd.ID, wd.PixID },
		status:   func(wd storage.Withdrawal) string { return wd.Status },
		complete: (*storage.Tx).CompleteWithdrawal, fail: (*storage.Tx).FailWithdrawal,
		postback: func(_ context.Context, _ *storage.Tx, wd storage.Withdrawal) (*postback.Event, error) {
			return withdrawalPostback(wd), nil
		},
	}
}

func refundKind(db *storage.DB) transferKind[storage.Refund] {
	return transferKind[storage.Refund]{
		what: "refund", kind: storage.KindRefund, byID: db.RefundByID, byPixID: db.RefundByPixID,
		ident:    func(f storage.Refund) (uuid.UUID, *string) { return f.ID, f.PixID },
		status:   func(f storage.Refund) string { return f.Status },
		complete: (*storage.Tx).CompleteRefund, fail: (*storage.Tx).FailRefund,
		postback: refundPostback,
	}
}

func (w *Worker) withdrawals() transferKind[storage.Withdrawal] { return withdrawalKind(w.deps.DB) }
func (w *Worker) refunds() transferKind[storage.Refund]         { return refundKind(w.deps.DB) }

// completing and failing are a transfer's two ways out of PROCESSING, each
// with the postback of the status it reaches, written in the caller's
// transaction. changed is false when the transfer had already left
// PROCESSING (and then nothing is written).
func (k transferKind[T]) completing(ctx context.Context, id uuid.UUID, s storage.Settlement) func(*storage.Tx) (T, bool, error) {
	return k.withPostback(ctx, func(tx *storage.Tx) (T, bool, error) { return k.complete(tx, ctx, id, s) })
}

func (k transferKind[T]) failing(ctx context.Context, id uuid.UUID, f storage.Failure) func(*storage.Tx) (T, bool, error) {
	return k.withPostback(ctx, func(tx *storage.Tx) (T, bool, error) { return k.fail(tx, ctx, id, f) })
}

func (k transferKind[T]) withPostback(ctx context.Context, change func(*storage.Tx) (T, bool, error)) func(*storage.Tx) (T, bool, error) {
	return func(tx *storage.Tx) (T, bool, error) {
		done, changed, err := change(tx)
		if err != nil || !changed {
			return done, changed, err
		}
		ev, err := k.postback(ctx, tx, done)
		if err != nil {
			return done, false, err
		}
		return done, true, writePostback(ctx, tx, ev)
	}
}

// applyTransfer completes or fails the transfer the provider confirmed,
// with its postback, in one transaction; any other status changes nothing.
func applyTransfer[T any](ctx context.Context, w *Worker, txn *providerclient.Transaction, also func(*storage.Tx, string) error, k transferKind[T]) (string, error) {
	rec, ignored, err := locate(ctx, txn, k.what, k.byID, k.byPixID, k.ident)
	if err != nil || ignored != "" {
		return w.ignoreOr(ctx, ignored, err, also)
	}
	id, _ := k.ident(rec)
	finish := func(what string, change func(*storage.Tx) (T, bool, error)) (string, error) {
		return w.transition(ctx, k.what+" "+what, also, func(tx *storage.Tx) (bool, error) {
			_, changed, err := change(tx)
			return changed, err
		})
	}
	switch txn.Status {
	case contract.StatusCompleted:
		return finish("completed", k.completing(ctx, id, settlement(txn)))
	case contract.StatusFailed:
		return finish("failed", k.failing(ctx, id, storage.Failure{PixID: txn.TransactionID, Reason: failureReason(txn)}))
	}
	return w.ignore(ctx, "no change: "+k.what+" is "+txn.Status+" at the provider", also)
}
