package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// sendTransfer sends a PROCESSING withdrawal or refund to the provider with
// send, whose external_id is the record's id, so a repeated send (a
// redelivered task, a retry after a lost answer) never moves money twice.
//
//   - accepted: record stores the provider's transaction id; the final
//     status arrives later by notification or reconciliation;
//   - rejected: the transfer fails, its reservation is released and its
//     postback written, in one SQL transaction;
//   - unavailable, unknown outcome, breaker open: the task is retried.
func sendTransfer[T any](ctx context.Context, w *Worker, id uuid.UUID, k transferKind[T],
	send func(context.Context, T) (providerID string, err error), record func(context.Context, uuid.UUID, string) error) error {
	rec, err := k.byID(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%s %s does not exist: %w", k.what, id, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if _, sent := k.ident(rec); k.status(rec) != storage.WithdrawalProcessing || sent != nil {
		return nil // already sent, or already final
	}
	providerID, err := send(ctx, rec)
	switch {
	case err == nil:
		return record(ctx, id, providerID)
	case errors.Is(err, providerclient.ErrRejected):
		failure := storage.Failure{Reason: rejectionReason(k.what, err)}
		return w.deps.DB.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := k.failing(ctx, id, failure)(tx)
			return err
		})
	default:
		return err
	}
}

// rejectionReason is the provider's own words, for the integrator.
func rejectionReason(what string, err error) string {
	if what == "withdrawal" {
		what = "payment"
	}
	var pe *providerclient.Error
	if errors.As(err, &pe) && pe.Message != "" {
		return "provider rejected the " + what + ": " + pe.Message
	}
	return "provider rejected the " + what
}
