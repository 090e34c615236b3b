package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Cycles is one of the integrator's recurrences, by id or external_id,
// with the cycles PixGate holds of it (oldest first, with their attempts).
func (s *Service) Cycles(ctx context.Context, integratorID int64, ref string) (storage.Recurrence, []storage.Cycle, error) {
	r, err := s.Recurrence(ctx, integratorID, ref)
	if err != nil {
		return r, nil, err
	}
	cycles, err := s.recurrences.CyclesOf(ctx, r.ID)
	return r, cycles, err
}

// ErrCycleAmount: a cycle's amount the recurrence's rules refuse (a fixed
// recurrence's cycles are its amount; a variable one's not below its
// floor nor above the payer's maximum).
var ErrCycleAmount = errors.New("the cycle's amount is not one the recurrence allows")

// ErrCycleClosed: a cycle whose amount can no longer be set.
var ErrCycleClosed = errors.New("the cycle can no longer take an amount")

// SetCycleAmount sets the amount of cycle n of one of the integrator's
// variable recurrences (CREATED or APPROVED), before its window closes:
// the cycle is scheduled with it, and sent on its send day.
func (s *Service) SetCycleAmount(ctx context.Context, in storage.Integrator, ref string, n int, amount money.Money) (storage.Cycle, error) {
	r, err := s.Recurrence(ctx, in.ID, ref)
	if err != nil {
		return storage.Cycle{}, err
	}
	if r.Status != recurrence.RecurrenceCreated && r.Status != recurrence.RecurrenceApproved {
		return storage.Cycle{}, &RuleError{Rule: ErrCycleClosed, Field: "status",
			Detail: fmt.Sprintf("is %s: only a CREATED or APPROVED recurrence's cycles take an amount", r.Status)}
	}
	var payerMax money.Money
	if r.PayerMax != nil {
		payerMax = *r.PayerMax
	}
	if err := r.Amount.CheckCycle(amount, payerMax); err != nil {
		return storage.Cycle{}, &RuleError{Rule: ErrCycleAmount, Field: "amount", Detail: cycleAmountDetail(r, err, payerMax)}
	}
	if fee := in.CashIn.Compute(amount); amount <= fee {
		return storage.Cycle{}, &RuleError{Rule: ErrAmountNotAboveFee, Field: "amount", Detail: fmt.Sprintf("must exceed the cash-in fee of R$ %s", fee)}
	}
	c, err := s.recurrences.SetCycleAmount(ctx, r, n, amount, due.Today(s.cfg.Now()))
	if errors.Is(err, storage.ErrCycleNotSettable) {
		return c, &RuleError{Rule: ErrCycleClosed, Field: "n",
			Detail: "is already sent, the first payment, or past its window (a cycle is sent at least 2 days before its due date)"}
	}
	return c, err
}

// cycleAmountDetail says why CheckCycle refused an amount.
func cycleAmountDetail(r storage.Recurrence, err error, payerMax money.Money) string {
	switch {
	case errors.Is(err, recurrence.ErrAmountMismatch):
		return fmt.Sprintf("a fixed recurrence's cycles are its amount (R$ %s): nothing to set", r.Amount.Fixed)
	case errors.Is(err, recurrence.ErrBelowFloor):
		return fmt.Sprintf("must not be below the recurrence's floor of R$ %s", r.Amount.Floor)
	case errors.Is(err, recurrence.ErrAboveMaximum):
		return fmt.Sprintf("must not exceed the maximum of R$ %s the payer set (their bank would reject it, AM02)", payerMax)
	}
	return err.Error()
}
