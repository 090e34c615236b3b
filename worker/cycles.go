package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence's cycles (docs/recurrences.md) are driven from Postgres by
// the reconciler's tick, as the rest of what it re-drives: their days are
// days ahead, so a tick's delay costs nothing, and a lost message loses
// none. Each tick schedules the cycles whose send day has come, sends the
// scheduled ones to their provider, and reads at the provider the sent ones
// no news moved for StaleAfter; the provider's notifications apply the
// same reads as they come (applyCycleEvent).

// cycles is what the worker asks a provider about a recurrence's cycles;
// a providerclient.Connector is one.
type cycles interface {
	SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error)
	ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error)
	RetryCycle(ctx context.Context, ref providerclient.CycleRef, day due.Date) error
}

// errNotApprovedYet: a cycle whose recurrence still waits for its
// payer's consent.
var errNotApprovedYet = errors.New("the recurrence is not approved yet")

// scheduleCycles writes the cycles whose send day has come, for every
// approved recurrence due to have one.
func (w *Worker) scheduleCycles(ctx context.Context, _ int64) error {
	today := w.today()
	ready, err := w.cycles.DueRecurrences(ctx, today, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "recurrence schedules", ready, func(r storage.Recurrence) string { return r.ID.String() },
		func(r storage.Recurrence) error {
			_, err := w.cycles.ScheduleCycles(ctx, r.ID, today)
			return err
		})
}

// sendCycles sends each scheduled cycle whose send day has come to its
// recurrence's provider. A provider that cannot be reached is asked again
// on a later tick while the window lasts; once it has closed, or when the
// provider refuses the cycle, the cycle is FAILED (nothing was charged).
func (w *Worker) sendCycles(ctx context.Context, _ int64) error {
	today := w.today()
	toSend, err := w.cycles.CyclesToSend(ctx, today, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "cycles to send", toSend, func(c storage.Cycle) string { return c.ID.String() },
		func(c storage.Cycle) error {
			err := w.sendCycle(ctx, c)
			switch {
			case err != nil && !recurrence.ScheduleWindow(c.DueDate).Contains(today):
				_, ferr := w.failCycle(ctx, c, "the cycle's charge could not be sent before its window closed: "+err.Error())
				return ferr
			case errors.Is(err, errNotApprovedYet): // no failure: it waits
				return w.cycles.TouchCycle(ctx, c.ID)
			}
			return touchOnError(err, func() error { return w.cycles.TouchCycle(ctx, c.ID) })
		})
}

// sendCycle asks the provider for one cycle's charge and records it.
func (w *Worker) sendCycle(ctx context.Context, c storage.Cycle) error {
	r, err := w.recurrences.RecurrenceByID(ctx, c.RecurrenceID)
	if err != nil {
		return err
	}
	switch {
	case r.Status.Final():
		_, err := w.cancelCycleHere(ctx, c, r)
		return err
	case r.Status != recurrence.RecurrenceApproved || r.ProviderID == nil:
		// Its amount was set before the payer consented (a variable
		// recurrence): it waits, and fails if its window closes first.
		return errNotApprovedYet
	}
	at, err := w.cyclesAt(r.Provider)
	if err != nil {
		return err
	}
	if _, err := w.cycles.CashInFee(ctx, r.IntegratorID, c.Amount); errors.Is(err, storage.ErrCycleBelowFee) {
		// The fee rule changed since the amount was taken: never sent, so
		// no payment can come that PixGate would not record.
		_, err := w.failCycle(ctx, c, "the cycle's amount does not exceed the cash-in fee in force")
		return err
	} else if err != nil {
		return err
	}
	req := providerclient.CycleRequest{ID: c.ID.String(), Recurrence: recurrenceRef(r), N: c.N, DueDate: c.DueDate,
		Amount: c.Amount, Payer: providerclient.Party{Name: r.Payer.Name, Document: r.Payer.Document}}
	if r.Description != nil {
		req.Description = *r.Description
	}
	got, err := at.SendCycle(ctx, req)
	var pe *providerclient.Error
	if errors.As(err, &pe) && pe.Kind == providerclient.ErrRejected {
		_, ferr := w.failCycle(ctx, c, "the provider refused the cycle's charge: "+pe.Error())
		return ferr
	}
	if err != nil {
		return err
	}
	_, err = w.applyCycle(ctx, c, r, got, nil)
	return err
}

// cyclesAt is the named provider's cycle calls.
func (w *Worker) cyclesAt(name string) (cycles, error) {
	p, err := w.providerAt(name)
	if err != nil {
		return nil, err
	}
	at, ok := p.(cycles)
	if !ok {
		return nil, &providerclient.Error{Op: providerclient.OpSendCycle, Kind: providerclient.ErrUnsupported,
			Message: "provider " + name + " serves no recurrence cycles"}
	}
	return at, nil
}

// retriesItself reports whether the named provider asks cycles' retries
// by itself.
func (w *Worker) retriesItself(name string) bool {
	p, err := w.providerAt(name)
	if err != nil {
		return false
	}
	c, ok := p.(interface {
		Capabilities() providerclient.Capabilities
	})
	return ok && c.Capabilities().RetriesItself
}

func recurrenceRef(r storage.Recurrence) providerclient.RecurrenceRef {
	ref := providerclient.RecurrenceRef{ID: r.ID.String()}
	if r.ProviderID != nil {
		ref.ProviderID = *r.ProviderID
	}
	return ref
}

func cycleRef(c storage.Cycle, r storage.Recurrence) providerclient.CycleRef {
	ref := providerclient.CycleRef{ID: c.ID.String(), Recurrence: recurrenceRef(r), DueDate: c.DueDate}
	if c.ProviderID != nil {
		ref.ProviderID = *c.ProviderID
	}
	return ref
}

// watchCycles reads at their provider the sent cycles no news moved for
// StaleAfter and applies what each says; one still open, or whose read
// fails, goes to the back of the queue.
func (w *Worker) watchCycles(ctx context.Context, _ int64) error {
	open, err := w.cycles.OpenCycles(ctx, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "open cycles", open, func(c storage.Cycle) string { return c.ID.String() },
		func(c storage.Cycle) error {
			err := w.readAndApplyCycle(ctx, c, nil)
			return errors.Join(err, w.cycles.TouchCycle(ctx, c.ID))
		})
}

// readAndApplyCycle reads a sent cycle at its provider and applies it,
// then asks the retry its policy gives, if one is due.
func (w *Worker) readAndApplyCycle(ctx context.Context, c storage.Cycle, also alsoFunc) error {
	r, err := w.recurrences.RecurrenceByID(ctx, c.RecurrenceID)
	if err != nil {
		return err
	}
	at, err := w.cyclesAt(r.Provider)
	if err != nil {
		return err
	}
	got, err := at.ReadCycle(ctx, cycleRef(c, r))
	if err != nil {
		return err
	}
	moved, err := w.applyCycle(ctx, c, r, got, also)
	if err != nil {
		return err
	}
	return w.retryIfDue(ctx, moved, r, got, at)
}

// retryIfDue asks the provider to try a cycle again when its last attempt
// failed for a reason that leaves it to the policy, no attempt is open,
// and the policy gives a day (RetryPolicy.NextRetry); then reads and
// applies the cycle with its new attempt. A provider that retries by
// itself is asked nothing; with no day left, the provider ends the cycle.
func (w *Worker) retryIfDue(ctx context.Context, c storage.Cycle, r storage.Recurrence, got *providerclient.Cycle, at cycles) error {
	if (c.Status != recurrence.CycleCreated && c.Status != recurrence.CycleActive) || len(got.Attempts) == 0 {
		return nil
	}
	if _, open := got.OpenAttempt(); open || w.retriesItself(r.Provider) {
		return nil
	}
	last := got.Attempts[len(got.Attempts)-1]
	if last.Status == recurrence.AttemptRejected && recurrence.RejectionCode(last.RejectionCode).EndsCycle() {
		return nil
	}
	if last.Status != recurrence.AttemptRejected && last.Status != recurrence.AttemptExpired {
		return nil
	}
	next, _ := r.Calendar.Due(c.N + 1)
	day, ok := r.RetryPolicy.NextRetry(c.DueDate, next, retriesOf(got), last.SettleOn, w.today())
	if !ok {
		return nil
	}
	ref := cycleRef(c, r)
	if err := at.RetryCycle(ctx, ref, day); err != nil {
		return fmt.Errorf("ask retry on %s: %w", day, err)
	}
	again, err := at.ReadCycle(ctx, ref)
	if err != nil {
		return err
	}
	_, err = w.applyCycle(ctx, c, r, again, nil)
	return err
}

// retriesOf counts the retries a cycle's attempts spent.
func retriesOf(c *providerclient.Cycle) int {
	n := 0
	for _, a := range c.Attempts {
		if a.Kind.CountsAsRetry() {
			n++
		}
	}
	return n
}
