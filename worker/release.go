package worker

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage/money"
)

// releaseRetryAfter is how long a charge whose release failed is left
// alone before it is tried again; a failure there means a broken record
// (an operator must look: the audit names it), never a busy one.
const releaseRetryAfter = 10 * time.Minute

// releaseHeld is the reconciler's settlement step: it moves the held net of
// charges whose hold has ended from pending to available, at most Batch
// charges a tick, each in its own transaction. Any number of ticks may run
// it at once: a charge is claimed with SKIP LOCKED and released by a guarded
// update and a posting whose reference is unique, so it moves once. A
// charge that fails is set aside for releaseRetryAfter, so broken records
// cannot fill every batch, and the others are still released.
func (w *Worker) releaseHeld(ctx context.Context, _ int64) error {
	due, err := w.charges.DueReleases(ctx, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	var (
		total money.Money
		count int
	)
	err = forEach(ctx, w, "settlement releases", due, uuid.UUID.String, func(id uuid.UUID) error {
		released, err := w.charges.ReleaseCharge(ctx, id)
		if err != nil {
			if derr := w.charges.DeferRelease(ctx, id, releaseRetryAfter); derr != nil {
				w.log.Warn("could not set a failed release aside", "charge_id", id, "err", derr)
			}
			return err
		}
		if released > 0 {
			total += released
			count++
		}
		return nil
	})
	if count > 0 {
		w.log.Info("settlement holds released", "charges", count, "amount", total.String())
	}
	return err
}
