package worker

import (
	"context"
	"errors"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// checkPendingCharges consults the provider about the PENDING charges whose
// check is due, at most Batch per tick: a paid one is credited (its
// notifications were lost), one past its expiry and unpaid is EXPIRED, the
// others get their next check. Charges are claimed before they are
// consulted, so ticks overlapping on several workers share the due charges
// instead of consulting them twice.
func (w *Worker) checkPendingCharges(ctx context.Context, _ int64) error {
	rc := w.cfg.Reconcile
	charges, err := w.charges.ClaimDueCharges(ctx, w.now(), rc.ChargeFirstCheck, rc.ChargeCheckLease, rc.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "pending charges", charges, func(c storage.Charge) string { return c.ID.String() },
		func(c storage.Charge) error { return w.checkCharge(ctx, c) })
}

// checkCharge is one charge's check. A provider that cannot be reached
// leaves the charge claimed: it is checked again after the lease.
func (w *Worker) checkCharge(ctx context.Context, c storage.Charge) error {
	rc := w.cfg.Reconcile
	now := w.now()
	expired := c.ExpiresAt != nil && !now.Before(c.ExpiresAt.Add(rc.ExpiryGrace))
	p, err := w.providerAt(c.Provider)
	if err != nil {
		return err
	}
	txn, err := p.Read(ctx, chargeRef(c))
	switch {
	case errors.Is(err, providerclient.ErrNotFound) && expired:
		// Nobody can pay a charge the provider does not know.
		w.log.Warn("provider does not know an expired charge; it expires", "charge_id", c.ID, "pix_id", *c.PixID)
		txn = &providerclient.Transaction{Kind: providerclient.KindCharge, ProviderID: *c.PixID, ExternalID: c.ID.String()}
	case errors.Is(err, providerclient.ErrNotFound):
		w.log.Warn("provider does not know a pending charge", "charge_id", c.ID, "pix_id", *c.PixID)
		return w.charges.ScheduleChargeCheck(ctx, c.ID, rc.nextChargeCheck(c, now))
	case err != nil:
		return err
	}
	if txn.ProviderID == "" {
		txn.ProviderID = *c.PixID
	}
	if txn.Status != providerclient.StatusPaid && expired {
		txn.Status = providerclient.StatusExpired // unpaid, past its expiry: the provider confirms it
	}
	if txn.Status == providerclient.StatusPaid || txn.Status == providerclient.StatusExpired {
		if _, err := w.applyConfirmed(ctx, txn, nil); err != nil {
			return err
		}
	}
	// Still PENDING (not paid yet, or a payment refused for an operator):
	// check again later. A charge that left PENDING is not rescheduled.
	return w.charges.ScheduleChargeCheck(ctx, c.ID, rc.nextChargeCheck(c, now))
}

// nextChargeCheck is when a PENDING charge checked at now is checked again:
// after a gap as long as its age, so checks come at about 15 s, 30 s, 1, 2,
// 4, 8 min ... after creation (a charge paid at age a waits at most about a
// for its credit, plus a tick); the gap is at least ChargeFirstCheck and at
// most ChargeMaxGap, and the last check comes ExpiryGrace after the
// charge's expiry. A charge still PENDING after that (a payment refused for
// an operator) is checked every ChargeMaxGap.
func (c ReconcileConfig) nextChargeCheck(ch storage.Charge, now time.Time) time.Time {
	gap := min(max(now.Sub(ch.CreatedAt), c.ChargeFirstCheck), c.ChargeMaxGap)
	next := now.Add(gap)
	if ch.ExpiresAt != nil {
		if last := ch.ExpiresAt.Add(c.ExpiryGrace); next.After(last) && last.After(now) {
			next = last
		}
	}
	return next
}
