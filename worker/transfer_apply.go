package worker

import (
	"context"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// applyTransfer completes or fails the transfer the provider confirmed,
// with its postback, in one transaction; any other status changes nothing.
func (w *Worker) applyTransfer(ctx context.Context, kind storage.TransferKind, txn *providerclient.Transaction, known *storage.Transfer, also alsoFunc) (outcome, error) {
	t, none, err := locate(ctx, txn, known, string(kind),
		func(ctx context.Context, id uuid.UUID) (storage.Transfer, error) {
			return w.transfers.TransferByID(ctx, kind, id)
		},
		func(ctx context.Context, pixID string) (storage.Transfer, error) {
			return w.transfers.TransferByPixID(ctx, kind, pixID)
		},
		func(t storage.Transfer) (uuid.UUID, *string) { return t.ID, t.PixID })
	if err != nil {
		return outcome{}, err
	}
	if none != "" {
		return w.record(ctx, outcome{ignored, none}, also)
	}
	switch txn.Status {
	case providerclient.StatusCompleted:
		return w.transition(ctx, string(kind)+" completed", also, func(tx Tx) (bool, error) {
			_, changed, err := completeTransfer(ctx, tx, t, settlement(txn))
			return changed, err
		})
	case providerclient.StatusFailed:
		return w.transition(ctx, string(kind)+" failed", also, func(tx Tx) (bool, error) {
			_, changed, err := failTransfer(ctx, tx, t, storage.Failure{PixID: txn.ProviderID, Reason: failureReason(txn)})
			return changed, err
		})
	}
	return w.record(ctx, outcome{noChange, string(kind) + " is " + string(txn.Status) + " at the provider"}, also)
}

// completeTransfer and failTransfer are a transfer's two ways out of
// PROCESSING, each with the postback of the status it reaches, written in
// tx, in the transfer's trace (settle). changed is false when the transfer
// had already left PROCESSING (and then nothing is written).
func completeTransfer(ctx context.Context, tx Tx, t storage.Transfer, s storage.Settlement) (storage.Transfer, bool, error) {
	return settle(ctx, string(t.Kind)+" completed", t.TraceParent, func(ctx context.Context) (storage.Transfer, bool, error) {
		done, changed, err := tx.CompleteTransfer(ctx, t.Kind, t.ID, s)
		return postbackOf(ctx, tx, done, changed, err)
	})
}

func failTransfer(ctx context.Context, tx Tx, t storage.Transfer, f storage.Failure) (storage.Transfer, bool, error) {
	return settle(ctx, string(t.Kind)+" failed", t.TraceParent, func(ctx context.Context) (storage.Transfer, bool, error) {
		done, changed, err := tx.FailTransfer(ctx, t.Kind, t.ID, f)
		return postbackOf(ctx, tx, done, changed, err)
	})
}

func postbackOf(ctx context.Context, tx Tx, done storage.Transfer, changed bool, err error) (storage.Transfer, bool, error) {
	if err != nil || !changed {
		return done, changed, err
	}
	return done, true, writePostback(ctx, tx, transferPostback(done))
}
