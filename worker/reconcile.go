package worker

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// ReconcileConfig says when the reconciler looks again at what a lost
// message may have left behind.
type ReconcileConfig struct {
	// Interval between ticks; the tick of a slot runs once whatever the
	// number of workers. A check that falls due waits at most this long.
	// Default 5s.
	Interval time.Duration
	// StaleAfter is how long a withdrawal or refund may stay PROCESSING
	// without news, or a notification unprocessed, or a charge unissued,
	// before the reconciler asks the provider. Default 2m.
	StaleAfter time.Duration
	// ChargeFirstCheck is how long after its creation a PENDING charge is
	// first consulted; later checks come after a gap as long as the
	// charge's age (15 s, 30 s, 1 min, 2 min ... after creation). Default
	// 15s.
	ChargeFirstCheck time.Duration
	// ChargeMaxGap caps the gap between two checks of a PENDING charge.
	// Default 15m.
	ChargeMaxGap time.Duration
	// ChargeCheckLease is how long a claimed charge is left alone when its
	// check fails (provider unreachable) or its worker dies. Default 1m.
	ChargeCheckLease time.Duration
	// ExpiryGrace is how long after a charge's expiry its last check comes:
	// unpaid then, it is EXPIRED. Default 1m.
	ExpiryGrace time.Duration
	// MaxResends bounds how many times a withdrawal or refund the provider
	// no longer knows is sent again; the next time it is flagged for an
	// operator instead. Default 3.
	MaxResends int
	// Batch caps the records of each kind looked at per tick. Default 100.
	Batch int
	// InfractionPoll is how often each provider that lists MED
	// infractions (efi; the family with PixGate's extensions, which also
	// notifies them) is asked for those opened or changed within
	// InfractionPollWindow, so that one whose notification was lost is
	// found. Defaults 1m and 7 days. Open infractions are
	// also re-read one by one once stale (StaleAfter), whatever the
	// provider.
	InfractionPoll, InfractionPollWindow time.Duration
}

func (c ReconcileConfig) withDefaults() ReconcileConfig {
	if c.Interval <= 0 {
		c.Interval = 5 * time.Second
	}
	if c.StaleAfter <= 0 {
		c.StaleAfter = 2 * time.Minute
	}
	if c.ChargeFirstCheck <= 0 {
		c.ChargeFirstCheck = 15 * time.Second
	}
	if c.ChargeMaxGap <= 0 {
		c.ChargeMaxGap = 15 * time.Minute
	}
	if c.ChargeCheckLease <= 0 {
		c.ChargeCheckLease = time.Minute
	}
	if c.ExpiryGrace <= 0 {
		c.ExpiryGrace = time.Minute
	}
	if c.MaxResends <= 0 {
		c.MaxResends = 3
	}
	if c.Batch <= 0 {
		c.Batch = 100
	}
	if c.InfractionPoll <= 0 {
		c.InfractionPoll = defaultInfractionPoll
	}
	if c.InfractionPollWindow <= 0 {
		c.InfractionPollWindow = defaultInfractionPollWindow
	}
	return c
}

// reconcile is one tick. Each step re-drives from Postgres, the source of
// truth, so nothing depends on what Redis still holds; each action is
// idempotent, so a tick that overlaps a late task or another tick is
// harmless. A failing step is logged and the next one still runs, and
// within a step a failing record is logged and the next one still runs.
func (w *Worker) reconcile(ctx context.Context, t *asynq.Task) error {
	var p tasks.ReconcileTick
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	for _, s := range w.reconcileSteps() {
		if err := s.run(ctx, p.Slot); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.log.Warn("reconcile step failed", "step", s.name, "err", err)
		}
	}
	return nil
}

// reconcileStep is one step of a tick.
type reconcileStep struct {
	name string
	run  func(context.Context, int64) error
}

// reconcileSteps are a tick's steps, in order: one per kind of transfer.
func (w *Worker) reconcileSteps() []reconcileStep {
	steps := []reconcileStep{
		{"settlement releases", w.releaseHeld}, // first: it needs no provider
		{"provider events", w.redriveEvents},
		{"pending charges", w.checkPendingCharges},
	}
	for _, kind := range storage.TransferKinds {
		steps = append(steps, reconcileStep{string(kind) + "s", func(ctx context.Context, slot int64) error {
			return w.reconcileTransfers(ctx, kind, slot)
		}})
	}
	return append(steps,
		reconcileStep{"infractions", w.reconcileInfractions},
		reconcileStep{"infraction poll", w.pollInfractions},
		reconcileStep{"recurrences", w.reconcileRecurrences},
		reconcileStep{"recurrence schedules", w.scheduleCycles},
		reconcileStep{"cycles to send", w.sendCycles},
		reconcileStep{"open cycles", w.watchCycles},
		reconcileStep{"unissued charges", w.reconcileUnissuedCharges},
		reconcileStep{"payout deadlines", w.notifyDeadlines},
		reconcileStep{"approvals", w.expireApprovals},
		reconcileStep{"batches", w.finishBatches},
		reconcileStep{"postbacks", w.redrivePostbacks},
		reconcileStep{"failing endpoints", w.disableFailingEndpoints},
		reconcileStep{"flagged transfers", w.countFlagged})
}

// redriveEvents re-enqueues notifications whose task was lost.
func (w *Worker) redriveEvents(ctx context.Context, slot int64) error {
	events, err := w.events.UnprocessedEvents(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "provider events", events, func(ev storage.ProviderEvent) string { return strconv.FormatInt(ev.ID, 10) },
		func(ev storage.ProviderEvent) error {
			// A notification that waited for this is one whose task was
			// lost (Redis lost or flushed) or never ran: worth a line.
			w.log.Warn("provider notification re-driven: its task never ran", "event_id", ev.ID,
				"provider", ev.Provider, "received_at", ev.ReceivedAt)
			return w.enqueueNow(ctx, tasks.ProviderEventMessage(tasks.ProviderEvent{
				EventID: ev.ID, TransactionType: ev.TransactionType, TransactionID: ev.TransactionID}, int(slot)))
		})
}

// reconcileUnissuedCharges fails charges whose creating request died before
// the provider's answer was stored. Nobody saw their QR code; a retry with
// the same external_id asks the provider again.
func (w *Worker) reconcileUnissuedCharges(ctx context.Context, _ int64) error {
	charges, err := w.charges.UnissuedCharges(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "unissued charges", charges, func(c storage.Charge) string { return c.ID.String() },
		func(c storage.Charge) error {
			_, err := w.charges.FailCharge(ctx, c.ID, "issuance was interrupted; retry with the same external_id")
			if errors.Is(err, storage.ErrStateChanged) {
				return nil
			}
			return err
		})
}

// enqueueNow puts a task on the queue directly; a task id already there
// means it is queued.
func (w *Worker) enqueueNow(ctx context.Context, m tasks.Message) error {
	task, err := m.Task()
	if err != nil {
		return err
	}
	_, err = w.queue.EnqueueContext(ctx, task)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return nil
	}
	return err
}
