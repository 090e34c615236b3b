package worker

import (
	"context"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// sendWithdrawal sends a PROCESSING withdrawal to the provider as a PIX
// payment (see sendTransfer).
func (w *Worker) sendWithdrawal(ctx context.Context, t *asynq.Task) error {
	var p tasks.WithdrawalSend
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	return sendTransfer(ctx, w, p.WithdrawalID, w.withdrawals(), w.sendPayment, w.deps.DB.RecordWithdrawalSent)
}

// sendPayment sends a withdrawal to the provider as a PIX payment and
// returns the provider's transaction id.
func (w *Worker) sendPayment(ctx context.Context, wd storage.Withdrawal) (string, error) {
	pay, err := w.deps.Provider.CreatePayment(ctx, w.paymentRequest(wd))
	if err != nil {
		return "", err
	}
	return pay.TransactionID, nil
}

// paymentRequest is the provider payment of a withdrawal, with the
// withdrawal's id as external_id, so that sending it again never pays twice.
func (w *Worker) paymentRequest(wd storage.Withdrawal) providerclient.PaymentRequest {
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
	return req
}
