package worker

import (
	"context"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/postback"
)

// transferKind describes a transfer (withdrawal or refund) for
// applyTransfer: both finish the same way, COMPLETED or FAILED.
type transferKind[T any] struct {
	what     string // "withdrawal", "refund"
	byID     func(context.Context, uuid.UUID) (T, error)
	byPixID  func(context.Context, string) (T, error)
	ident    func(T) (uuid.UUID, *string)
	complete func(*storage.Tx, context.Context, uuid.UUID, storage.Settlement) (T, bool, error)
	fail     func(*storage.Tx, context.Context, uuid.UUID, string) (T, bool, error)
	postback func(context.Context, T) *postback.Event
}

func (w *Worker) withdrawals() transferKind[storage.Withdrawal] {
	return transferKind[storage.Withdrawal]{
		what: "withdrawal", byID: w.deps.DB.WithdrawalByID, byPixID: w.deps.DB.WithdrawalByPixID,
		ident:    func(wd storage.Withdrawal) (uuid.UUID, *string) { return wd.ID, wd.PixID },
		complete: (*storage.Tx).CompleteWithdrawal, fail: (*storage.Tx).FailWithdrawal,
		postback: func(_ context.Context, wd storage.Withdrawal) *postback.Event { return withdrawalPostback(wd) },
	}
}

func (w *Worker) refunds() transferKind[storage.Refund] {
	return transferKind[storage.Refund]{
		what: "refund", byID: w.deps.DB.RefundByID, byPixID: w.deps.DB.RefundByPixID,
		ident:    func(f storage.Refund) (uuid.UUID, *string) { return f.ID, f.PixID },
		complete: (*storage.Tx).CompleteRefund, fail: (*storage.Tx).FailRefund,
		postback: w.refundPostback,
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
			done, changed, err := change(tx)
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, k.postback(ctx, done))
		})
	}
	switch txn.Status {
	case statusCompleted:
		return finish("completed", func(tx *storage.Tx) (T, bool, error) { return k.complete(tx, ctx, id, settlement(txn)) })
	case statusFailed:
		return finish("failed", func(tx *storage.Tx) (T, bool, error) { return k.fail(tx, ctx, id, failureReason(txn)) })
	}
	return w.ignore(ctx, "no change: "+k.what+" is "+txn.Status+" at the provider", also)
}
