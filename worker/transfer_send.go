package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// handleWithdrawalSend, handleRefundSend and handleMedReturnSend handle the
// send task of each kind: each sends its transfer (sendTransfer).
func (w *Worker) handleWithdrawalSend(ctx context.Context, t *asynq.Task) error {
	var p tasks.WithdrawalSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	return w.sendTransfer(ctx, storage.KindWithdrawal, p.WithdrawalID)
}

func (w *Worker) handleRefundSend(ctx context.Context, t *asynq.Task) error {
	var p tasks.RefundSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	return w.sendTransfer(ctx, storage.KindRefund, p.RefundID)
}

func (w *Worker) handleMedReturnSend(ctx context.Context, t *asynq.Task) error {
	var p tasks.MedReturnSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	return w.sendTransfer(ctx, storage.KindMedReturn, p.MedReturnID)
}

// sendTransfer sends a PROCESSING transfer to the provider, with its own id
// as external_id, so a repeated send (a redelivered task, a retry after a
// lost answer) never moves money twice.
//
//   - accepted: the provider's transaction id is recorded; the final
//     status arrives later by notification or reconciliation;
//   - refused, with the connector's proof that the provider holds nothing
//     under its id (fleet.NothingHeld): the transfer fails, its
//     reservation is released and its postback written, in one SQL
//     transaction;
//   - refused because the DICT marks the key for fraud (fraudRefused):
//     failed so at once, its reason starting "key_fraud_marked: ", never
//     retried nor moved to another provider;
//   - anything else (a refusal without that proof, unavailable, unknown
//     outcome, breaker open): the task is retried.
func (w *Worker) sendTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID) error {
	t, send, err := w.claimSend(ctx, kind, id)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%s %s does not exist: %w", kind, id, asynq.SkipRetry)
	}
	if errors.Is(err, storage.ErrStateChanged) {
		return nil // already sent, or already final
	}
	if err != nil {
		return err
	}
	pixID, err := w.sendClaimed(ctx, t)
	for kind == storage.KindWithdrawal && err != nil && !fraudRefused(err, send) {
		next, ferr := w.failoverWithdrawal(ctx, t, err, send)
		if ferr != nil || next == "" {
			err = cmp.Or(ferr, err)
			break
		}
		// Claimed where it is now: at next, unless another task moved it
		// since; ErrStateChanged (sent or final meanwhile) is retried and
		// finds out which.
		if t, send, err = w.transfers.ClaimWithdrawalSend(ctx, id); err != nil {
			return err
		}
		pixID, err = w.sendClaimed(ctx, t)
	}
	switch {
	case err != nil && fraudRefused(err, send):
		return w.fail(ctx, t, providerclient.KeyFraudMarkedCode+": "+rejectionReason(outbound[kind].noun, err))
	case err == nil && outbound[kind].madeByProvider:
		// The provider made it on its own: it may be final already, and
		// its notification may have come before PixGate knew its id.
		if err := w.transfers.RecordTransferSent(ctx, kind, id, pixID, taskID(ctx)); err != nil {
			return err
		}
		t.PixID = &pixID
		return w.consultTransfer(ctx, t)
	case err == nil:
		// Even with ctx over: for a withdrawal, this records its send's end.
		return w.transfers.RecordTransferSent(context.WithoutCancel(ctx), kind, id, pixID, taskID(ctx))
	case fleet.NothingHeld(err):
		return w.fail(ctx, t, rejectionReason(outbound[kind].noun, err))
	default:
		// A refusal without proof that the provider holds nothing under
		// this id (it may have taken an earlier send), an unknown outcome,
		// the provider unavailable: retried, and read back by the
		// reconciler; never failed while the provider may have paid it.
		return err
	}
}

// fraudRefused: the provider refused the send because the DICT marks the
// key for fraud (providerclient.KeyFraudMarked), and held nothing under
// its id: proved by the connector, or its first send there (send, see
// failoverWithdrawal), which no earlier send can have paid. Such a send is
// failed at once: another provider, or a retry, would be refused the same.
func fraudRefused(err error, send int) bool {
	return providerclient.KeyFraudMarked(err) && (fleet.NothingHeld(err) || send == 1)
}

// claimSend reads a transfer to send and, for a withdrawal, records that
// its send begins at the provider it records (see failoverWithdrawal), in
// one statement. storage.ErrStateChanged: it is sent or final already;
// storage.ErrNotFound: there is no such transfer.
func (w *Worker) claimSend(ctx context.Context, kind storage.TransferKind, id uuid.UUID) (storage.Transfer, int, error) {
	if kind == storage.KindWithdrawal {
		t, send, err := w.transfers.ClaimWithdrawalSend(ctx, id)
		if errors.Is(err, storage.ErrStateChanged) {
			if _, rerr := w.transfers.TransferByID(ctx, kind, id); rerr != nil {
				return t, 0, rerr
			}
		}
		return t, send, err
	}
	t, err := w.transfers.TransferByID(ctx, kind, id)
	if err == nil && (t.Status != storage.TransferProcessing || t.PixID != nil) {
		err = storage.ErrStateChanged
	}
	return t, 0, err
}

// sendClaimed sends a transfer claimSend claimed (callProvider), and
// records for a withdrawal whose send was not accepted that the send
// ended, whatever its outcome (even with ctx over): until it does, the
// withdrawal does not move (see failoverWithdrawal). An accepted send's
// end is recorded with its provider's id (RecordTransferSent).
func (w *Worker) sendClaimed(ctx context.Context, t storage.Transfer) (string, error) {
	pixID, err := w.callProvider(ctx, t)
	if t.Kind == storage.KindWithdrawal && err != nil {
		if eerr := w.transfers.EndWithdrawalSend(context.WithoutCancel(ctx), t.ID); eerr != nil {
			err = errors.Join(err, eerr)
		}
	}
	return pixID, err
}

// fail fails a transfer with its postback, in one transaction.
func (w *Worker) fail(ctx context.Context, t storage.Transfer, reason string) error {
	return w.tx.InTx(ctx, func(tx Tx) error {
		_, _, err := failTransfer(ctx, tx, t, storage.Failure{Reason: reason})
		return err
	})
}

// rejectionReason is the provider's own words, for the integrator:
// "provider rejected the <what>: <its message>".
func rejectionReason(what string, err error) string {
	reason := "provider rejected the " + what
	var pe *providerclient.Error
	if errors.As(err, &pe) && pe.Message != "" {
		reason += ": " + pe.Message
	}
	return reason
}
