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
//
// The event is marked confirmed only when the provider confirmed its claim
// (same type and status) and the record reached that state: only then do
// later copies of the claim count as duplicates. An early PAID (the
// provider still says PENDING) is processed as "no change" and the genuine
// one, when it comes, is processed in full.
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
	txn, err := w.deps.Provider.ConsultTransaction(ctx, ev.TransactionID)
	if errors.Is(err, providerclient.ErrNotFound) {
		w.log.Warn("notification for a transaction the provider does not know; ignored", "event_id", ev.ID, "transaction_id", ev.TransactionID)
		outcome, err := w.ignore(ctx, "ignored: unknown to the provider", w.markEvent(ctx, ev, nil))
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
	outcome, err := w.applyConfirmed(ctx, txn, w.markEvent(ctx, ev, txn))
	if err != nil {
		return err
	}
	w.metrics.event(outcome)
	w.log.Debug("provider event applied", "event_id", ev.ID, "outcome", outcome)
	return nil
}

// markEvent records an event's outcome in the transaction that applied it,
// confirmed when txn (the provider's answer, nil when it has none) bears the
// claim out and the record reached the claimed state.
func (w *Worker) markEvent(ctx context.Context, ev storage.ProviderEvent, txn *providerclient.Transaction) func(*storage.Tx, string) error {
	return func(tx *storage.Tx, outcome string) error {
		confirmed := txn != nil && txn.TransactionType == ev.TransactionType && txn.Status == ev.Status && reached(outcome)
		return tx.MarkEventProcessed(ctx, ev.ID, outcome, confirmed)
	}
}
