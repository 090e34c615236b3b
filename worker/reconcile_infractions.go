package worker

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// reconcileInfractions asks the provider about the infractions still open
// that no news moved for StaleAfter: a close whose notification was lost
// is applied all the same. An infraction the provider still has open, or
// whose read fails, goes to the back of the queue.
func (w *Worker) reconcileInfractions(ctx context.Context, _ int64) error {
	d := disputesOf(w.provider)
	if d == nil {
		return nil
	}
	open, err := w.infractions.StaleInfractions(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "infractions", open, func(i storage.Infraction) string { return i.ID.String() },
		func(i storage.Infraction) error {
			ref, at, from := providerclient.InfractionRef{ProviderID: i.ProviderID}, d, providerclient.DefaultName
			if c, err := w.charges.ChargeByID(ctx, i.ChargeID); err == nil {
				ref.Charge, from = chargeRef(c), cmp.Or(c.Provider, providerclient.DefaultName)
				// The disputed charge's provider holds the infraction.
				p, err := w.providerAt(c.Provider)
				if err != nil {
					return touchOnError(err, func() error { return w.infractions.TouchInfraction(ctx, i.ID) })
				}
				if at = disputesOf(p); at == nil {
					return w.infractions.TouchInfraction(ctx, i.ID)
				}
			}
			inf, err := at.ReadInfraction(ctx, ref)
			if err == nil {
				_, err = w.applyInfraction(ctx, from, inf, nil)
			}
			switch {
			case err != nil:
				return touchOnError(err, func() error { return w.infractions.TouchInfraction(ctx, i.ID) })
			case inf.Status == providerclient.InfractionOpen:
				return w.infractions.TouchInfraction(ctx, i.ID)
			}
			return nil
		})
}

// pollInfractions lists, at each provider that lists infractions (those
// not notifying them, and those notifying them, whose notification may be
// lost), those opened or changed within InfractionPollWindow, every
// InfractionPoll (counted in ticks, so that one worker polls whatever the
// number of workers), and applies each. One provider failing does not stop
// the others' polls.
func (w *Worker) pollInfractions(ctx context.Context, slot int64) error {
	if every := int64(max(w.cfg.Reconcile.InfractionPoll/w.cfg.Reconcile.Interval, 1)); slot%every != 0 {
		return nil
	}
	var errs []error
	for _, p := range w.everyProvider() {
		d := disputesOf(p)
		if d == nil || !d.Capabilities().InfractionList {
			continue
		}
		list, err := d.ListInfractions(ctx, w.now().Add(-w.cfg.Reconcile.InfractionPollWindow))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, forEach(ctx, w, "infraction poll", list, func(i providerclient.Infraction) string { return i.ProviderID },
			func(i providerclient.Infraction) error {
				_, err := w.applyInfraction(ctx, nameOf(p), &i, nil)
				return err
			}))
	}
	return errors.Join(errs...)
}

// infractionPollDefaults are ReconcileConfig's defaults for polling.
const (
	defaultInfractionPoll       = time.Minute
	defaultInfractionPollWindow = 7 * 24 * time.Hour
)
