package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/postback"
)

// applyCycleEvent handles a stored notification of a recurrence's cycle:
// as for every notification, it believes nothing the notification says,
// reads the cycle from the provider that holds it, and applies what the
// provider says (then asks the retry that is due, if any).
func (w *Worker) applyCycleEvent(ctx context.Context, ev storage.ProviderEvent) error {
	c, err := w.cycles.CycleByProviderID(ctx, cmp.Or(ev.Provider, providerclient.DefaultName), ev.TransactionID)
	if id, perr := uuid.Parse(ev.ExternalID); errors.Is(err, storage.ErrNotFound) && perr == nil {
		c, err = w.cycles.CycleByID(ctx, id)
	}
	if errors.Is(err, storage.ErrNotFound) {
		_, err := w.record(ctx, outcome{ignored, "no cycle " + ev.TransactionID}, w.markCycleEvent(ctx, ev))
		return err
	}
	if err != nil {
		return err
	}
	err = w.readAndApplyCycle(ctx, c, w.markCycleEvent(ctx, ev))
	switch {
	case errors.Is(err, providerclient.ErrRejected): // unknown to the provider
		w.log.Warn("notification of a cycle the provider does not confirm; ignored", "event_id", ev.ID, "cycle_id", c.ID, "error", err)
		_, err := w.record(ctx, outcome{ignored, "the provider does not confirm the cycle"}, w.markCycleEvent(ctx, ev))
		return err
	case errors.Is(err, providerclient.ErrUnknownOutcome), errors.Is(err, providerclient.ErrUnavailable):
		return fmt.Errorf("%w: %w", errConsultAgain, err)
	}
	return err
}

// markCycleEvent records a cycle event's outcome, as markEvent does for
// transactions.
func (w *Worker) markCycleEvent(ctx context.Context, ev storage.ProviderEvent) alsoFunc {
	return func(tx Tx, o outcome) error {
		return tx.MarkEventProcessed(ctx, ev.ID, o.String(), o.reached(), false, taskID(ctx))
	}
}

// endCycles cancels a recurrence's cycles not yet sent when it ends, with
// their postbacks, and stops its schedule: in the transaction of its end.
// The cycles already sent are the provider's to end, and it notifies them.
func endCycles(ctx context.Context, tx Tx, r storage.Recurrence) error {
	if !r.Status.Final() {
		return nil
	}
	by := ""
	if r.CancelledBy != nil {
		by = *r.CancelledBy
	}
	cancelled, err := tx.CancelScheduledCycles(ctx, r.ID, by)
	if err != nil {
		return err
	}
	for _, c := range cancelled {
		if err := writePostback(ctx, tx, optional(postback.ForCycle(c, r))); err != nil {
			return err
		}
	}
	return tx.ParkSchedule(ctx, r.ID)
}
