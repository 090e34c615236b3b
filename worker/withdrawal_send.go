package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// sendWithdrawal sends a PROCESSING withdrawal to the provider as a PIX
// payment whose external_id is the withdrawal id, so a repeated send (a
// redelivered task, a retry after a lost answer) never pays twice.
//
//   - accepted: the provider's transaction id is recorded; the final status
//     arrives later by notification or reconciliation;
//   - rejected: the withdrawal fails and its reservation is released, in
//     one SQL transaction;
//   - unavailable, unknown outcome, breaker open: the task is retried.
func (w *Worker) sendWithdrawal(ctx context.Context, t *asynq.Task) error {
	var p tasks.WithdrawalSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	wd, err := w.deps.DB.WithdrawalByID(ctx, p.WithdrawalID)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("withdrawal %s does not exist: %w", p.WithdrawalID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if wd.Status != storage.WithdrawalProcessing || wd.PixID != nil {
		return nil // already sent, or already final
	}
	req := providerclient.PaymentRequest{
		Amount:     wd.Amount,
		ExternalID: wd.ID.String(),
		CreditParty: providerclient.CreditParty{
			Name: wd.CreditParty.Name, KeyType: wd.CreditParty.KeyType, Key: wd.CreditParty.Key, TaxID: wd.CreditParty.TaxID,
		},
		PostbackURL: w.cfg.ProviderWebhookURL,
	}
	if wd.Description != nil {
		req.Description = *wd.Description
	}
	pay, err := w.deps.Provider.CreatePayment(ctx, req)
	switch {
	case err == nil:
		_, err = w.deps.DB.RecordWithdrawalSent(ctx, wd.ID, pay.TransactionID)
		return err
	case errors.Is(err, providerclient.ErrRejected):
		return w.failWithdrawal(ctx, wd, rejectionReason(err))
	default:
		return err
	}
}

// failWithdrawal fails a withdrawal and releases its reservation.
func (w *Worker) failWithdrawal(ctx context.Context, wd storage.Withdrawal, reason string) error {
	return w.deps.DB.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.FailWithdrawal(ctx, wd.ID, reason)
		return err
	})
}

// rejectionReason is the provider's own words, for the integrator.
func rejectionReason(err error) string {
	var pe *providerclient.Error
	if errors.As(err, &pe) && pe.Message != "" {
		return "provider rejected the payment: " + pe.Message
	}
	return "provider rejected the payment"
}
