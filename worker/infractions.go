package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// MED infractions reach the worker three ways: a notification the
// provider sent (applyInfractionEvent), a poll of a provider that is not
// notified (pollInfractions) and the reconciler's re-read of those still
// open (reconcileInfractions). All three believe only what the provider
// answers when asked, and apply it through applyInfraction, which is
// idempotent: an infraction is recorded (and its money blocked) once, and
// closed once, however many of the three bring it, and in whatever order.

// applyInfractionEvent handles a stored notification that claims an
// infraction: the provider is asked for it, and what it answers is
// applied. The notification names no record of PixGate's, so each provider
// that reads infractions is asked in turn, the default first, until one
// knows it (or cannot be asked: then the event is retried).
func (w *Worker) applyInfractionEvent(ctx context.Context, ev storage.ProviderEvent) error {
	var (
		inf   *providerclient.Infraction
		err   error
		asked bool
		from  string
	)
	for _, p := range w.everyProvider() {
		d := disputesOf(p)
		if d == nil {
			continue
		}
		asked, from = true, nameOf(p)
		if inf, err = d.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: ev.TransactionID}); !errors.Is(err, providerclient.ErrRejected) {
			break
		}
	}
	if !asked {
		o, err := w.record(ctx, outcome{ignored, "the provider reads no infractions"}, w.markInfractionEvent(ctx, ev, nil))
		w.metrics.event(o)
		return err
	}
	if errors.Is(err, providerclient.ErrRejected) { // unknown to the provider, or not readable
		w.log.Warn("notification of an infraction the provider does not confirm; ignored", "event_id", ev.ID,
			"infraction", ev.TransactionID, "error", err)
		o, err := w.record(ctx, outcome{ignored, "the provider does not confirm the infraction"}, w.markInfractionEvent(ctx, ev, nil))
		w.metrics.event(o)
		return err
	}
	if err != nil {
		return err
	}
	o, err := w.applyInfraction(ctx, from, inf, w.markInfractionEvent(ctx, ev, inf))
	if err != nil {
		return err
	}
	w.metrics.event(o)
	return nil
}

// markInfractionEvent records an infraction event's outcome, as markEvent
// does for transactions.
func (w *Worker) markInfractionEvent(ctx context.Context, ev storage.ProviderEvent, inf *providerclient.Infraction) alsoFunc {
	return func(tx Tx, o outcome) error {
		borneOut := inf != nil && string(inf.Status) == ev.Status
		return tx.MarkEventProcessed(ctx, ev.ID, o.String(), borneOut && o.reached(), borneOut, taskID(ctx))
	}
}

// applyInfraction brings PixGate's record of an infraction to what the
// provider says of it, in one transaction with also: recorded (its money
// blocked) the first time it is seen, closed when the provider closed it
// (released, or reserved for a MED return the provider makes). An
// infraction first seen already closed is recorded and closed in the same
// transaction. Each step writes the postback of the status it reaches.
func (w *Worker) applyInfraction(ctx context.Context, from string, inf *providerclient.Infraction, also alsoFunc) (outcome, error) {
	if also == nil {
		also = func(Tx, outcome) error { return nil }
	}
	status, err := infractionStatus(inf.Status)
	if err != nil || inf.Amount <= 0 {
		return w.record(ctx, outcome{ignored, fmt.Sprintf("infraction %s is %q for %s", inf.ProviderID, inf.Status, inf.Amount)}, also)
	}
	c, err := w.disputedCharge(ctx, inf.Charge)
	if errors.Is(err, storage.ErrNotFound) {
		return w.record(ctx, outcome{ignored, "no charge for infraction " + inf.ProviderID}, also)
	}
	if err != nil {
		return outcome{}, err
	}
	if at := cmp.Or(c.Provider, providerclient.DefaultName); w.severalProviders() && at != from {
		w.log.Warn("infraction reported by a provider that did not take its charge; ignored", "infraction", inf.ProviderID,
			"from", from, "charge_id", c.ID, "charge_provider", at)
		return w.record(ctx, outcome{ignored, "infraction " + inf.ProviderID + " from provider " + from + " on a charge of provider " + at}, also)
	}
	known, err := w.infractions.InfractionOf(ctx, c.ID, inf.ProviderID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return outcome{}, err
	case known.Status.Final():
		return w.record(ctx, outcome{alreadyApplied, "infraction is " + string(known.Status)}, also)
	case status == storage.InfractionOpen:
		return w.record(ctx, outcome{alreadyApplied, "infraction is open"}, also)
	}
	return w.transition(ctx, "infraction "+string(inf.Status), also, func(tx Tx) (bool, error) {
		id := uuid.Must(uuid.NewV7())
		opened, created, err := tx.OpenInfraction(ctx, storage.NewInfraction{ID: id, ChargeID: c.ID, ProviderID: inf.ProviderID,
			Amount: inf.Amount, Reason: providerText2000(inf.Reason), ReportedAt: inf.ReportedAt, DueAt: inf.DueAt})
		if err != nil {
			return false, err
		}
		if created {
			w.infractionOpened(opened)
			if err := writePostback(ctx, tx, infractionPostback(opened, c)); err != nil {
				return false, err
			}
		}
		if status == storage.InfractionOpen {
			return created, nil
		}
		closing := storage.InfractionClosing{Status: status, Analysis: providerText2000(inf.Analysis)}
		if status == storage.InfractionAgreed {
			closing.MedReturnID = uuid.Must(uuid.NewV7())
			// The MED return's send and settlement join this task's trace.
			closing.Outbox = []storage.OutboxMessage{storage.OutboxMessage(tasks.Traced(ctx, tasks.MedReturnSendMessage(closing.MedReturnID, 0)))}
			closing.TraceParent = tasks.TraceParent(ctx)
		}
		closed, _, changed, err := tx.CloseInfraction(ctx, opened.ID, closing)
		if err != nil || !changed {
			return created, err
		}
		return true, writePostback(ctx, tx, infractionPostback(closed, c))
	})
}

// infractionStatuses are storage's statuses for the provider's. Both
// sides name the same four today; they are mapped one by one all the same,
// so that a status either side adds is mapped here before it is stored.
var infractionStatuses = map[providerclient.InfractionStatus]storage.InfractionStatus{
	providerclient.InfractionOpen:      storage.InfractionOpen,
	providerclient.InfractionAgreed:    storage.InfractionAgreed,
	providerclient.InfractionDisagreed: storage.InfractionDisagreed,
	providerclient.InfractionCancelled: storage.InfractionCancelled,
}

// errInfractionStatus: the provider reported an infraction in a status
// PixGate does not know; applyInfraction ignores it, storing nothing.
var errInfractionStatus = errors.New("unknown infraction status")

// infractionStatus is storage's status for the provider's s.
func infractionStatus(s providerclient.InfractionStatus) (storage.InfractionStatus, error) {
	if st, ok := infractionStatuses[s]; ok {
		return st, nil
	}
	return "", fmt.Errorf("%w %q", errInfractionStatus, s)
}

// infractionOpened logs what an infraction blocked, and loudly what it
// could not.
func (w *Worker) infractionOpened(inf storage.Infraction) {
	if inf.Shortfall() > 0 {
		w.log.Warn("infraction blocks less than it disputes: the integrator's balances do not cover it",
			"infraction_id", inf.ID, "integrator_id", inf.IntegratorID, "amount", inf.Amount.String(),
			"blocked", inf.Blocked.String(), "shortfall", inf.Shortfall().String())
		return
	}
	w.log.Info("infraction opened; its amount is blocked", "infraction_id", inf.ID, "integrator_id", inf.IntegratorID,
		"blocked", inf.Blocked.String())
}

// disputedCharge is the charge an infraction names: by the provider's id
// of it, or by the end-to-end id of the PIX that paid it.
func (w *Worker) disputedCharge(ctx context.Context, ref providerclient.Ref) (storage.Charge, error) {
	switch {
	case ref.ProviderID != "":
		return w.charges.ChargeByPixID(ctx, ref.ProviderID)
	case ref.EndToEndID != "":
		return w.infractions.ChargeByEndToEndID(ctx, ref.EndToEndID)
	}
	return storage.Charge{}, storage.ErrNotFound
}

func infractionPostback(inf storage.Infraction, c storage.Charge) *postback.Event {
	return optional(postback.ForInfraction(inf, c))
}

// providerText2000 is a long text of the provider's (a report, an
// analysis) as PixGate keeps it: trimmed to 2000 characters, the DICT's
// own bound (ReportDetails, AnalysisDetails), without control characters.
func providerText2000(s string) string {
	r := []rune(s)
	out := make([]rune, 0, min(len(r), 2000))
	for _, c := range r {
		if len(out) == 2000 {
			break
		}
		if c == '\n' || c >= ' ' && c != 0x7f {
			out = append(out, c)
		}
	}
	return string(out)
}
