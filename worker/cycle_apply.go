package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/worker/postback"
)

// cycleEvents is the event that takes a cycle to the status its provider
// reports.
var cycleEvents = map[recurrence.CycleStatus]recurrence.CycleEvent{
	recurrence.CycleActive:    recurrence.CycleAccept,
	recurrence.CyclePaid:      recurrence.CyclePay,
	recurrence.CycleExpired:   recurrence.CycleExpire,
	recurrence.CycleRejected:  recurrence.CycleReject,
	recurrence.CycleCancelled: recurrence.CycleCancel,
}

// applyCycle brings PixGate's record of a cycle to what its provider
// reports, in one transaction with also: the charge issued (a cycle the
// provider holds that PixGate had not yet recorded as sent), each attempt
// recorded with a postback per status it reaches, the cycle moved through
// the core's transitions with its postback, and its money: a PAID cycle's
// charge is paid (its charge.paid posting, once: the charge's status
// guards it), an unpaid end expires the charge. The charge sends no
// postback of its own: the cycle's PAID is the cash-in's notice. A status
// the cycle cannot reach from its own is refused for an operator to look
// at, and so is a payment of another amount. It runs in a span "settle
// cycle <status>" under the task that applies it (a cycle keeps no trace
// of its own: the reconciler's tick sends it).
func (w *Worker) applyCycle(ctx context.Context, c storage.Cycle, r storage.Recurrence, got *providerclient.Cycle, also alsoFunc) (storage.Cycle, error) {
	if also == nil {
		also = func(Tx, outcome) error { return nil }
	}
	var moved storage.Cycle
	o, _, err := settle(ctx, "cycle "+string(got.Status), "", func(ctx context.Context) (outcome, bool, error) {
		o, err := w.applyCycleTx(ctx, c, r, got, also, &moved)
		return o, o.kind == applied, err
	})
	if err == nil {
		w.metrics.event(o)
	}
	return moved, err
}

// applyCycleTx is applyCycle's transaction, in the settlement's span.
func (w *Worker) applyCycleTx(ctx context.Context, c storage.Cycle, r storage.Recurrence, got *providerclient.Cycle, also alsoFunc, out *storage.Cycle) (outcome, error) {
	return w.transition(ctx, "cycle "+string(got.Status), also, func(tx Tx) (bool, error) {
		cur, err := tx.LockCycle(ctx, c.ID)
		if err != nil {
			return false, err
		}
		changed := false
		if cur.Status == recurrence.CycleScheduled {
			if got.ProviderID == "" {
				return false, fmt.Errorf("the provider answered cycle %s without its id", c.ID)
			}
			if cur, changed, err = tx.IssueCycle(ctx, cur, r, got.ProviderID); err != nil {
				return false, err
			}
			if err := writePostback(ctx, tx, optional(postback.ForCycle(cur, r))); err != nil {
				return false, err
			}
		}
		attempts, err := w.recordAttempts(ctx, tx, cur, r, got)
		changed = changed || attempts
		if err != nil {
			return false, err
		}
		moved, err := w.moveCycle(ctx, tx, cur, r, got)
		*out = moved
		return changed || moved.UpdatedAt != cur.UpdatedAt, err
	})
}

// recordAttempts records each attempt the provider reports, with a
// postback for each status one reaches.
func (w *Worker) recordAttempts(ctx context.Context, tx Tx, c storage.Cycle, r storage.Recurrence, got *providerclient.Cycle) (bool, error) {
	changed := false
	for i, a := range got.Attempts {
		rec := storage.CycleAttempt{CycleID: c.ID, Seq: i, Kind: a.Kind, SettleOn: a.SettleOn, Status: a.Status,
			RejectionCode: nonEmpty(a.RejectionCode)}
		if a.Status == recurrence.AttemptPaid {
			// The payment's: some contracts name the order of an attempt
			// that failed too, others do not, and the answer is one.
			rec.EndToEndID = nonEmpty(a.EndToEndID)
		}
		if rec.SettleOn.IsZero() {
			rec.SettleOn = c.DueDate
		}
		saved, moved, err := tx.RecordAttempt(ctx, rec)
		if err != nil {
			return changed, err
		}
		if !moved {
			continue
		}
		changed = true
		if err := writePostback(ctx, tx, optional(postback.ForAttempt(saved, c, r))); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// moveCycle moves the locked cycle c to got's status, with its money and
// its postback; the cycle as it ends up is returned.
func (w *Worker) moveCycle(ctx context.Context, tx Tx, c storage.Cycle, r storage.Recurrence, got *providerclient.Cycle) (storage.Cycle, error) {
	change := storage.CycleChange{To: got.Status, Retries: retriesOf(got), RejectionCode: got.RejectionCode,
		CancelledBy: string(got.CancelledBy), EndToEndID: got.EndToEndID, PaidAt: got.PaidAt}
	if got.Status == c.Status || got.Status == recurrence.CycleCreated {
		return c, tx.SetCycleRetries(ctx, c.ID, change.Retries)
	}
	ev, ok := cycleEvents[got.Status]
	if !ok {
		return c, nil
	}
	to, err := c.Status.Transition(ev)
	if errors.Is(err, recurrence.ErrRepeated) {
		return c, nil
	}
	if err != nil {
		w.log.Error("provider reports a cycle status PixGate's cannot reach; not applied", "cycle_id", c.ID,
			"status", c.Status, "provider_status", got.Status)
		return c, nil
	}
	if to == recurrence.CyclePaid && got.Amount != 0 && got.Amount != c.Amount {
		w.log.Error("provider reports a cycle paid with another amount; not credited", "cycle_id", c.ID,
			"amount", c.Amount.String(), "provider_amount", got.Amount.String())
		return c, nil
	}
	if to == recurrence.CycleRejected && change.RejectionCode == "" && len(got.Attempts) > 0 {
		change.RejectionCode = got.Attempts[len(got.Attempts)-1].RejectionCode
	}
	if err := w.cycleMoney(ctx, tx, c, to, got); err != nil {
		return c, err
	}
	moved, changed, err := tx.MoveCycle(ctx, c.ID, c.Status, change)
	if err != nil || !changed {
		return moved, err
	}
	if err := writePostback(ctx, tx, optional(postback.ForCycle(moved, r))); err != nil {
		return moved, err
	}
	return moved, w.completeIfLast(ctx, tx, moved, r)
}

// cycleMoney moves the cycle's charge with it: paid, or expired unpaid.
func (w *Worker) cycleMoney(ctx context.Context, tx Tx, c storage.Cycle, to recurrence.CycleStatus, got *providerclient.Cycle) error {
	if c.ChargeID == nil || !to.Final() {
		return nil
	}
	if to != recurrence.CyclePaid {
		_, _, err := tx.ExpireCharge(ctx, *c.ChargeID)
		return err
	}
	s := storage.Settlement{EndToEndID: got.EndToEndID, At: got.PaidAt}
	if c.ProviderID != nil {
		s.PixID = *c.ProviderID
	}
	if s.At.IsZero() {
		s.At = time.Now()
	}
	if p := got.Payer; p.Name != "" || p.Document != "" {
		s.PayerAccount = storage.PayerAccount{Name: providerText(p.Name), TaxID: providerText(p.Document)}
	}
	_, _, err := tx.MarkChargePaid(ctx, *c.ChargeID, s)
	return err
}

// completeIfLast completes a bounded recurrence when its last cycle is
// final.
func (w *Worker) completeIfLast(ctx context.Context, tx Tx, c storage.Cycle, r storage.Recurrence) error {
	n, bounded := r.Calendar.Cycles()
	if !bounded || c.N != n-1 || !c.Status.Final() || r.Status != recurrence.RecurrenceApproved {
		return nil
	}
	done, changed, err := tx.MoveRecurrence(ctx, r.ID, r.Status, storage.RecurrenceChange{To: recurrence.RecurrenceCompleted})
	if err != nil || !changed {
		return err
	}
	return writePostback(ctx, tx, optional(postback.ForRecurrence(done)))
}

// failCycle records that a scheduled cycle's charge could not be sent.
func (w *Worker) failCycle(ctx context.Context, c storage.Cycle, reason string) (storage.Cycle, error) {
	return w.endScheduled(ctx, c, storage.CycleChange{To: recurrence.CycleFailed, FailureReason: reason})
}

// cancelCycleHere cancels a scheduled cycle whose recurrence is no longer
// approved: it is never sent.
func (w *Worker) cancelCycleHere(ctx context.Context, c storage.Cycle, r storage.Recurrence) (storage.Cycle, error) {
	by := ""
	if r.CancelledBy != nil {
		by = *r.CancelledBy
	}
	return w.endScheduled(ctx, c, storage.CycleChange{To: recurrence.CycleCancelled, CancelledBy: by})
}

func (w *Worker) endScheduled(ctx context.Context, c storage.Cycle, ch storage.CycleChange) (storage.Cycle, error) {
	r, err := w.recurrences.RecurrenceByID(ctx, c.RecurrenceID)
	if err != nil {
		return c, err
	}
	var moved storage.Cycle
	err = w.tx.InTx(ctx, func(tx Tx) error {
		var changed bool
		var err error
		if moved, changed, err = tx.MoveCycle(ctx, c.ID, recurrence.CycleScheduled, ch); err != nil || !changed {
			return err
		}
		return writePostback(ctx, tx, optional(postback.ForCycle(moved, r)))
	})
	return moved, err
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
