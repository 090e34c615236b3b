package payments

import (
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The rules of due-date charges.
var (
	// ErrDuePassed: a due-date charge whose last payable day (its due date
	// plus its days after) is already past.
	ErrDuePassed = errors.New("the due-date charge could no longer be paid")
	// ErrDueUnsupported: no provider of the integrator's route takes
	// due-date charges.
	ErrDueUnsupported = errors.New("no provider takes due-date charges")
	// ErrDueNeedsPayer: a due-date charge names its payer (the BCB's cobv
	// requires the debtor's name and document).
	ErrDueNeedsPayer = errors.New("a due-date charge needs its payer's name")
)

// checkDue applies the rules of a due-date charge to r (its terms already
// validated and normalized): it names who pays, is payable today or later,
// and the least it can ask exceeds the cash-in fee on it. It returns what
// the charge keeps: the terms, their original amount, and the fee rule
// that will price what is paid.
func (s *Service) checkDue(in storage.Integrator, r *ChargeRequest) (*storage.ChargeDue, error) {
	terms := *r.Due
	terms.Original = r.Amount
	if r.Payer.Name == "" {
		return nil, &RuleError{Rule: ErrDueNeedsPayer, Field: "payer.name", Detail: "is required for a due-date charge"}
	}
	if last, today := terms.LastDay(), due.Today(s.cfg.Now()); last.Before(today) {
		return nil, &RuleError{Rule: ErrDuePassed, Field: "due.date",
			Detail: fmt.Sprintf("leaves %s (the due date plus days_after) as the last day it can be paid, which has passed (today is %s in Brasília)", last, today)}
	}
	if least := terms.Minimum(due.Today(s.cfg.Now())); least <= in.CashIn.Compute(least) {
		return nil, &RuleError{Rule: ErrAmountNotAboveFee, Field: "amount",
			Detail: fmt.Sprintf("less the most rebate and discount the terms give, R$ %s, must exceed the cash-in fee on it of R$ %s", least, in.CashIn.Compute(least))}
	}
	r.Due = &terms
	return &storage.ChargeDue{Terms: terms, Fee: in.CashIn}, nil
}

// capable is a provider that says what it can do.
type capable interface {
	Capabilities() providerclient.Capabilities
}

// dueRoute is the route's charge providers that take due-date charges, in
// order; none is a 422 before anything is written.
func (s *Service) dueRoute(r storage.Route) (storage.Route, error) {
	takes := func(name string) bool {
		if ps, ok := s.provider.(Providers); ok {
			c, found := ps.Provider(name)
			return found && c.Capabilities().DueCharges
		}
		c, ok := s.provider.(capable)
		return ok && c.Capabilities().DueCharges
	}
	var keep []storage.RouteStep
	for _, st := range r.Charges {
		if takes(st.Provider) {
			keep = append(keep, st)
		}
	}
	if len(keep) == 0 {
		return r, &RuleError{Rule: ErrDueUnsupported, Field: "due", Detail: "cannot be taken: no provider of this account's route takes due-date charges"}
	}
	r.Charges = keep
	return r, nil
}
