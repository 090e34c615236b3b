package due

import (
	"fmt"
	"slices"
	"strings"
)

// MaxDaysAfter bounds DaysAfter: ten years of validity after the due date.
// The BCB sets no bound; a charge payable for longer is a mistake.
const MaxDaysAfter = 3650

// maxDaysAhead bounds how far from today the due date may be, likewise.
const maxDaysAhead = 3650

// Validate checks the terms as a request carries them on the day today
// (Brasília), after Normalize and with Original set (the charge's amount;
// the checks that need it are skipped while it is 0). The first problem
// is a *FieldError naming the member.
func (t Terms) Validate(today Date) error {
	for _, check := range []func() *FieldError{
		func() *FieldError { return t.checkDates(today) }, t.checkFine, t.checkInterest, t.checkRebate, t.checkDiscount,
		func() *FieldError { return t.checkAmounts(today) },
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// checkDates: the due date from today on (the BCB refuses one before the
// charge's creation), and a validity within bounds.
func (t Terms) checkDates(today Date) *FieldError {
	switch {
	case t.Date.IsZero():
		return fieldErr("date", "is required")
	case t.Date.Before(today):
		return fieldErr("date", "must not be before today (%s in Brasília)", today)
	case t.Date.Sub(today) > maxDaysAhead:
		return fieldErr("date", "must be at most %d days after today (%s in Brasília)", maxDaysAhead, today)
	case t.DaysAfter < 0:
		return fieldErr("days_after", "must not be negative")
	case t.DaysAfter > MaxDaysAfter:
		return fieldErr("days_after", "must be at most %d", MaxDaysAfter)
	}
	return nil
}

// checkValue: greater than zero, within the BCB's format, and at most 100
// when it is a percentage that takes a share of the amount once.
func checkValue(field string, v Value, percent, upTo100 bool) *FieldError {
	switch {
	case v <= 0:
		return fieldErr(field, "must be greater than zero")
	case percent && upTo100 && v > 100*100:
		return fieldErr(field, "must not exceed 100 (it is a percentage)")
	case Value(maxAmount) < v:
		return fieldErr(field, "must be at most %s (the BCB's format)", maxAmount)
	}
	return nil
}

// checkMode: mode is one of modes.
func checkMode(field, mode string, modes ...string) *FieldError {
	switch {
	case mode == "":
		return fieldErr(field, "is required")
	case !slices.Contains(modes, mode):
		return fieldErr(field, "must be one of %s", strings.Join(modes, ", "))
	}
	return nil
}

// checkDays: a day count, calendar (the default) or business.
func checkDays(field, days string) *FieldError {
	if days != "" && days != CalendarDays && days != BusinessDays {
		return fieldErr(field, "must be %s or %s", CalendarDays, BusinessDays)
	}
	return nil
}

func (t Terms) checkFine() *FieldError {
	f := t.Fine
	if f == nil {
		return nil
	}
	if err := checkMode("fine.mode", f.Mode, FineFixed, FinePercent); err != nil {
		return err
	}
	return checkValue("fine.value", f.Value, f.Mode == FinePercent, true)
}

func (t Terms) checkInterest() *FieldError {
	in := t.Interest
	if in == nil {
		return nil
	}
	err := checkMode("interest.mode", in.Mode,
		InterestFixedPerDay, InterestPercentPerDay, InterestPercentPerMonth, InterestPercentPerYear)
	if err != nil {
		return err
	}
	if err := checkValue("interest.value", in.Value, in.Mode != InterestFixedPerDay, false); err != nil {
		return err
	}
	return checkDays("interest.days", in.Days)
}

func (t Terms) checkRebate() *FieldError {
	r := t.Rebate
	if r == nil {
		return nil
	}
	if err := checkMode("rebate.mode", r.Mode, RebateFixed, RebatePercent); err != nil {
		return err
	}
	return checkValue("rebate.value", r.Value, r.Mode == RebatePercent, true)
}
