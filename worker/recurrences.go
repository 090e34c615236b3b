package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/worker/postback"
)

// recurrences is what the worker asks a provider about Pix Automático
// recurrences (read one; cancel a consent whose deadline passed); a
// providerclient.Connector is one.
type recurrences interface {
	ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error)
	CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error
}

// applyRecurrenceEvent handles a stored notification of a recurrence
// (the provider's, or the one PixGate records when the integrator cancels
// one): as for a transaction, it believes nothing the notification says,
// reads the recurrence from the provider that holds it, and applies what
// the provider says.
func (w *Worker) applyRecurrenceEvent(ctx context.Context, ev storage.ProviderEvent) error {
	rec, err := w.recurrences.RecurrenceByProviderID(ctx, cmp.Or(ev.Provider, providerclient.DefaultName), ev.TransactionID)
	if id, perr := uuid.Parse(ev.ExternalID); errors.Is(err, storage.ErrNotFound) && perr == nil {
		rec, err = w.recurrences.RecurrenceByID(ctx, id)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return w.recordRecurrenceEvent(ctx, ev, nil, outcome{ignored, "no recurrence " + ev.TransactionID})
	}
	if err != nil {
		return err
	}
	p, err := w.providerAt(rec.Provider)
	if err != nil {
		return err
	}
	reader, ok := p.(recurrences)
	if !ok || rec.ProviderID == nil {
		return w.recordRecurrenceEvent(ctx, ev, nil, outcome{ignored, "the provider reads no recurrences"})
	}
	got, err := reader.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: rec.ID.String(), ProviderID: *rec.ProviderID})
	switch {
	case errors.Is(err, providerclient.ErrRejected): // unknown to the provider, or not readable
		w.log.Warn("notification of a recurrence the provider does not confirm; ignored", "event_id", ev.ID, "recurrence_id", rec.ID, "error", err)
		return w.recordRecurrenceEvent(ctx, ev, nil, outcome{ignored, "the provider does not confirm the recurrence"})
	case errors.Is(err, providerclient.ErrUnknownOutcome), errors.Is(err, providerclient.ErrUnavailable):
		return fmt.Errorf("%w: %w", errConsultAgain, err)
	case err != nil:
		return err
	}
	o, err := w.applyRecurrence(ctx, rec, got, w.markRecurrenceEvent(ctx, ev, got))
	if err == nil {
		w.metrics.event(o)
	}
	return err
}

// recordRecurrenceEvent records an event that changes nothing.
func (w *Worker) recordRecurrenceEvent(ctx context.Context, ev storage.ProviderEvent, got *providerclient.Recurrence, o outcome) error {
	o, err := w.record(ctx, o, w.markRecurrenceEvent(ctx, ev, got))
	if err == nil {
		w.metrics.event(o)
	}
	return err
}

// markRecurrenceEvent records a recurrence event's outcome, as markEvent
// does for transactions.
func (w *Worker) markRecurrenceEvent(ctx context.Context, ev storage.ProviderEvent, got *providerclient.Recurrence) alsoFunc {
	return func(tx Tx, o outcome) error {
		borneOut := got != nil && string(got.Status) == ev.Status
		return tx.MarkEventProcessed(ctx, ev.ID, o.String(), borneOut && o.reached(), borneOut, taskID(ctx))
	}
}

// providerEvents is the event that takes a recurrence to the status its
// provider reports.
var providerEvents = map[recurrence.RecurrenceStatus]recurrence.RecurrenceEvent{
	recurrence.RecurrenceApproved:  recurrence.RecurrenceApprove,
	recurrence.RecurrenceRejected:  recurrence.RecurrenceReject,
	recurrence.RecurrenceExpired:   recurrence.RecurrenceExpire,
	recurrence.RecurrenceCancelled: recurrence.RecurrenceCancel,
}

// applyRecurrence brings PixGate's record of a recurrence to the status
// its provider reports, through the core's transitions, with its postback,
// in one transaction with also. A status the record cannot reach from its
// own (the provider's says otherwise than PixGate's history allows) is
// refused for an operator to look at.
func (w *Worker) applyRecurrence(ctx context.Context, rec storage.Recurrence, got *providerclient.Recurrence, also alsoFunc) (outcome, error) {
	if also == nil {
		also = func(Tx, outcome) error { return nil }
	}
	ev, ok := providerEvents[got.Status]
	if !ok {
		return w.record(ctx, outcome{noChange, "recurrence is " + string(got.Status) + " at the provider"}, also)
	}
	to, err := rec.Status.Transition(ev)
	if err != nil && rec.Status.Final() && !errors.Is(err, recurrence.ErrRepeated) {
		// Ended at PixGate (an expired consent PixGate cancelled at the
		// provider): the provider's own end changes nothing.
		return w.record(ctx, outcome{noChange, fmt.Sprintf("recurrence ended %s, the provider says %s", rec.Status, got.Status)}, also)
	}
	if errors.Is(err, recurrence.ErrRepeated) {
		// Already there: its postback, written then, is not written twice.
		return w.transition(ctx, "recurrence "+string(to), also, func(tx Tx) (bool, error) {
			return false, writePostback(ctx, tx, optional(postback.ForRecurrence(rec)))
		})
	}
	if err != nil {
		w.log.Error("provider reports a recurrence status PixGate's cannot reach; not applied", "recurrence_id", rec.ID,
			"status", rec.Status, "provider_status", got.Status)
		return w.record(ctx, outcome{refused, fmt.Sprintf("recurrence is %s, the provider says %s", rec.Status, got.Status)}, also)
	}
	endCode := got.EndCode
	if to == recurrence.RecurrenceCancelled && got.CancelledBy == recurrence.PartyIntegrator && endCode == "" {
		endCode = recurrence.IntegratorCancelCode // the provider names none (woovi): the BCB's
	}
	return w.transition(ctx, "recurrence "+string(to), also, func(tx Tx) (bool, error) {
		moved, changed, err := tx.MoveRecurrence(ctx, rec.ID, rec.Status, storage.RecurrenceChange{To: to, PayerMax: got.PayerMax,
			ApprovedAt: got.ApprovedAt, CancelledBy: string(got.CancelledBy), EndCode: endCode, EndReason: got.EndReason})
		if err != nil {
			return false, err
		}
		if changed {
			if err := endCycles(ctx, tx, moved); err != nil {
				return false, err
			}
		}
		// Each status is told once (a second postback of it is ignored):
		// a move another worker made first still has its postback.
		return changed, writePostback(ctx, tx, optional(postback.ForRecurrence(moved)))
	})
}

// expireConsent ends a consent its payer did not give by its deadline
// while the provider still waits for it (the BCB sets no deadline on a QR
// journey's rec): cancelled at the provider first, so that no approval can
// come after, then EXPIRED at PixGate, with its postback.
func (w *Worker) expireConsent(ctx context.Context, r storage.Recurrence, at recurrences, ref providerclient.RecurrenceRef) error {
	if err := at.CancelRecurrence(ctx, ref); err != nil {
		return err
	}
	_, err := w.applyRecurrence(ctx, r, &providerclient.Recurrence{Status: recurrence.RecurrenceExpired,
		EndReason: "the payer did not consent by " + r.ConsentExpiresAt.UTC().Format(time.RFC3339)}, nil)
	return err
}

// reconcileRecurrences reads at their providers the recurrences still
// waiting for their payer's answer that no news moved for StaleAfter, and
// applies what each says: an approval, a refusal or an expiry whose
// notification was lost is applied all the same. One still waiting, or
// whose read fails, goes to the back of the queue.
func (w *Worker) reconcileRecurrences(ctx context.Context, _ int64) error {
	waiting, err := w.recurrences.WaitingRecurrences(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "recurrences", waiting, func(r storage.Recurrence) string { return r.ID.String() },
		func(r storage.Recurrence) error {
			touch := func() error { return w.recurrences.TouchRecurrence(ctx, r.ID) }
			p, err := w.providerAt(r.Provider)
			if err != nil {
				return touchOnError(err, touch)
			}
			reader, ok := p.(recurrences)
			if !ok {
				return touch()
			}
			ref := providerclient.RecurrenceRef{ID: r.ID.String(), ProviderID: *r.ProviderID}
			got, err := reader.ReadRecurrence(ctx, ref)
			switch {
			case err != nil:
				return touchOnError(err, touch)
			case got.Status == recurrence.RecurrenceCreated && !w.now().Before(r.ConsentExpiresAt):
				return touchOnError(w.expireConsent(ctx, r, reader, ref), touch)
			}
			if _, err = w.applyRecurrence(ctx, r, got, nil); err != nil {
				return touchOnError(err, touch)
			}
			if got.Status == recurrence.RecurrenceCreated { // still waiting: to the back
				return touch()
			}
			return nil
		})
}
