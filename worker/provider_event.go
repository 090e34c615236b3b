package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

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
	ev, rec, err := w.events.PickProviderEvent(ctx, p.EventID, recordLookup(p))
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("provider event %d does not exist: %w", p.EventID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if ev.ProcessedAt != nil {
		return nil
	}
	if ev.TransactionType == string(providerclient.KindInfraction) {
		return w.applyInfractionEvent(ctx, ev)
	}
	if ev.TransactionType == string(providerclient.KindRecurrence) {
		return w.applyRecurrenceEvent(ctx, ev)
	}
	if ev.TransactionType == string(providerclient.KindRecurrenceCycle) {
		return w.applyCycleEvent(ctx, ev)
	}
	if ev.TransactionType != p.TransactionType || ev.TransactionID != p.TransactionID {
		rec = storage.EventRecord{} // looked up for another claim than the event's
	}
	ref, known, err := w.eventRef(ctx, ev, rec)
	if err != nil {
		return err
	}
	// The provider recorded on PixGate's record; for a claim about none of
	// PixGate's records, the provider that sent it. Its events hold at most
	// its share of the lane, so that its reads hanging never hold up
	// another provider's.
	name := cmp.Or(known.provider(), ev.Provider, providerclient.DefaultName)
	at, err := w.providerAt(name)
	if err != nil {
		return err
	}
	give, err := w.eventShares.take(name)
	if err != nil {
		return err
	}
	defer give()
	txn, err := at.Read(ctx, ref)
	if errors.Is(err, providerclient.ErrNotFound) {
		w.log.Warn("notification for a transaction the provider does not know; ignored", "event_id", ev.ID, "transaction_id", ev.TransactionID)
		o, err := w.record(ctx, outcome{ignored, "unknown to the provider"}, w.markEvent(ctx, ev, nil))
		if err == nil {
			w.metrics.event(o)
		}
		return err
	}
	if errors.Is(err, providerclient.ErrRejected) {
		// The provider will not read what the notification names (an id of
		// no transaction of PixGate's, in a contract that needs more to
		// read it): nothing to apply; the reconciler reads PixGate's own.
		w.log.Warn("notification for a transaction the provider will not read; ignored", "event_id", ev.ID,
			"transaction_id", ev.TransactionID, "error", err)
		o, err := w.record(ctx, outcome{ignored, "the provider refused to read it"}, w.markEvent(ctx, ev, nil))
		if err == nil {
			w.metrics.event(o)
		}
		return err
	}
	if err != nil {
		// Unavailable, unknown outcome or breaker open: retried. A read
		// that went unanswered already waited its timeout: asked again
		// soon (consultAgain) rather than after a growing back-off.
		if errors.Is(err, providerclient.ErrUnknownOutcome) || errors.Is(err, providerclient.ErrUnavailable) {
			return fmt.Errorf("%w: %w", errConsultAgain, err)
		}
		return err
	}
	if txn.ProviderID == "" {
		txn.ProviderID = ev.TransactionID
	}
	o, err := w.applySeen(ctx, txn, known, w.markEvent(ctx, ev, txn))
	if err != nil {
		return err
	}
	w.metrics.event(o)
	w.log.Debug("provider event applied", "event_id", ev.ID, "outcome", o.String())
	return nil
}

// markEvent records an event's outcome in the transaction that applied it:
// borne out when txn (the provider's answer, nil when it has none) has the
// claimed kind and status, confirmed when besides the record reached the
// claimed state.
func (w *Worker) markEvent(ctx context.Context, ev storage.ProviderEvent, txn *providerclient.Transaction) alsoFunc {
	return func(tx Tx, o outcome) error {
		borneOut := txn != nil && string(txn.Kind) == ev.TransactionType && string(txn.Status) == ev.Status
		return tx.MarkEventProcessed(ctx, ev.ID, o.String(), borneOut && o.reached(), borneOut, taskID(ctx))
	}
}

// errConsultAgain marks an event whose consult failed for want of the
// provider's answer. A read is safe to repeat, and one that timed out has
// already waited the read's timeout, so the first consultRetries retries
// come after consultRetry rather than the back-off of 1 s, 2 s, 4 s: a
// paid charge at a provider losing half its answers was credited some
// 10 s late after two unanswered reads. Later retries back off as any
// task's do, so that a provider down for long is not read in a loop.
var errConsultAgain = errors.New("the provider did not answer the consult")

const (
	consultRetry   = 200 * time.Millisecond
	consultRetries = 3
)
