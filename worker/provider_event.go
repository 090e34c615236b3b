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

// applyProviderEvent handles one stored notification. It believes nothing
// the notification says: it asks the provider for the transaction
// (consult-transaction) and applies what the provider confirms. A forged or
// replayed notification therefore never credits a wallet; at worst it makes
// PixGate look at a transaction earlier than the reconciler would.
func (w *Worker) applyProviderEvent(ctx context.Context, t *asynq.Task) error {
	var p tasks.ProviderEvent
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	ev, err := w.deps.DB.ProviderEventByID(ctx, p.EventID)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("provider event %d does not exist: %w", p.EventID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if ev.ProcessedAt != nil {
		return nil
	}
	markProcessed := func(tx *storage.Tx, outcome string) error { return tx.MarkEventProcessed(ctx, ev.ID, outcome) }
	txn, err := w.deps.Provider.ConsultTransaction(ctx, ev.TransactionID)
	if errors.Is(err, providerclient.ErrNotFound) {
		w.log.Warn("notification for a transaction the provider does not know; ignored", "event_id", ev.ID, "transaction_id", ev.TransactionID)
		outcome, err := w.ignore(ctx, "ignored: unknown to the provider", markProcessed)
		if err == nil {
			w.metrics.event(outcome)
		}
		return err
	}
	if err != nil {
		return err // unavailable, unknown outcome or breaker open: retried
	}
	if txn.TransactionID == "" {
		txn.TransactionID = ev.TransactionID
	}
	outcome, err := w.applyConfirmed(ctx, txn, markProcessed)
	if err != nil {
		return err
	}
	w.metrics.event(outcome)
	w.log.Debug("provider event applied", "event_id", ev.ID, "outcome", outcome)
	return nil
}
