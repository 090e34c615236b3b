package sandbox

import (
	"fmt"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The payer's bank's side of a cycle (the controls, with their Go twins:
// accept, pay, reject, expire, cancel) and the receiver's (retry, cancel),
// each a cycleMove. The controls answer the cycle in the family's shape
// (contract.RecurrenceCycle) whatever the face, as the recurrence
// controls do; the faces render the records the unexported ones return.

// Rejection codes the sandbox writes itself when the payer's bank settles
// an attempt it must refuse ([API Pix], CobRTentativas; their meanings
// in storage/recurrence).
const (
	codeNotTheAmount = "AM09" // not the fixed recurrence's amount
	codeAboveMax     = "AM02" // above the payer's maximum
)

// AcceptCycle is the payer's bank scheduling the debit: a CREATED cycle
// becomes ACTIVE, its open attempt REQUESTED → SCHEDULED (and so does an
// ACTIVE cycle's retry).
func (s *Sandbox) AcceptCycle(id string) (contract.RecurrenceCycle, error) {
	return s.cycleAnswer(s.moveCycle(id, acceptMove))
}

func acceptMove(r *record, d *CycleData, _ due.Date, now time.Time) (recurrence.CycleStatus, error) {
	st := recurrence.CycleStatus(r.status)
	i := d.open()
	switch {
	case i >= 0 && d.Attempts[i].Status == recurrence.AttemptScheduled:
		return st, errUnchanged
	case i < 0:
		return st, fmt.Errorf("%w: cycle %s is %s with no attempt to schedule", ErrConflict, r.id, st)
	}
	if err := endAttempt(d, i, recurrence.AttemptSchedule, "", now); err != nil {
		return st, err
	}
	return recurrence.CycleActive, nil
}

// PayCycle settles the cycle's open attempt as the payer's bank does: a
// fixed recurrence's cycle of another amount is rejected AM09 (which ends
// it), one above the payer's maximum AM02 (the retry policy applies);
// otherwise the attempt and the cycle are PAID and the money moves.
func (s *Sandbox) PayCycle(id string) (contract.RecurrenceCycle, error) {
	return s.cycleAnswer(s.moveCycle(id, s.payMove))
}

// payMove is PayCycle's move. Callers hold s.mu.
func (s *Sandbox) payMove(r *record, d *CycleData, today due.Date, now time.Time) (recurrence.CycleStatus, error) {
	i := d.open()
	if i < 0 {
		return "", fmt.Errorf("%w: cycle %s is %s with no attempt to settle", ErrConflict, r.id, r.status)
	}
	if parent := s.records[d.Recurrence]; parent != nil && parent.rec != nil {
		switch terms := parent.rec; {
		case !terms.Amount.Variable() && r.amount != terms.Amount.Fixed:
			return s.rejectAttempt(r, d, i, codeNotTheAmount, today, now)
		case terms.PayerMax > 0 && r.amount > terms.PayerMax:
			return s.rejectAttempt(r, d, i, codeAboveMax, today, now)
		}
	}
	if err := endAttempt(d, i, recurrence.AttemptPay, "", now); err != nil {
		return "", err
	}
	d.Attempts[i].EndToEndID = newEndToEndID('E', now)
	return recurrence.CyclePaid, nil
}

// RejectCycle is the payer's bank rejecting the open attempt with code,
// one the BCB lists: a code that ends the cycle ends it (REJECTED),
// another leaves it to the retry policy.
func (s *Sandbox) RejectCycle(id, code string) (contract.RecurrenceCycle, error) {
	code = upper(code)
	if !recurrence.RejectionCode(code).Known() {
		return contract.RecurrenceCycle{}, fmt.Errorf("code %q is not one of the BCB's rejection codes", code)
	}
	return s.cycleAnswer(s.moveCycle(id, func(r *record, d *CycleData, today due.Date, now time.Time) (recurrence.CycleStatus, error) {
		i := d.open()
		if i < 0 {
			return "", fmt.Errorf("%w: cycle %s is %s with no attempt to reject", ErrConflict, r.id, r.status)
		}
		return s.rejectAttempt(r, d, i, code, today, now)
	}))
}

// rejectAttempt rejects d's open attempt i with code. Callers hold s.mu.
func (s *Sandbox) rejectAttempt(r *record, d *CycleData, i int, code string, today due.Date, now time.Time) (recurrence.CycleStatus, error) {
	if err := endAttempt(d, i, recurrence.AttemptReject, code, now); err != nil {
		return "", err
	}
	if recurrence.RejectionCode(code).EndsCycle() {
		d.RejectionCode = code
		return recurrence.CycleRejected, nil
	}
	return s.afterFailure(r, d, today, now), nil
}

// ExpireCycle is the open attempt's day passing unpaid: it EXPIRES and
// the retry policy applies.
func (s *Sandbox) ExpireCycle(id string) (contract.RecurrenceCycle, error) {
	return s.cycleAnswer(s.moveCycle(id, func(r *record, d *CycleData, today due.Date, now time.Time) (recurrence.CycleStatus, error) {
		i := d.open()
		if i < 0 {
			return "", fmt.Errorf("%w: cycle %s is %s with no attempt to expire", ErrConflict, r.id, r.status)
		}
		if err := endAttempt(d, i, recurrence.AttemptExpire, "", now); err != nil {
			return "", err
		}
		return s.afterFailure(r, d, today, now), nil
	}))
}

// PayerCancelCycle is the payer cancelling the scheduled debit.
func (s *Sandbox) PayerCancelCycle(id string) (contract.RecurrenceCycle, error) {
	return s.cycleAnswer(s.moveCycle(id, cancelMove(recurrence.PartyPayer)))
}

// cancelCycle is the integrator's cancel; a cycle already cancelled is
// answered as it is.
func (s *Sandbox) cancelCycle(id string, by recurrence.Party) (*record, error) {
	return s.moveCycle(id, cancelMove(by))
}

// cancelMove cancels a CREATED or ACTIVE cycle on behalf of by, its open
// attempt with it.
func cancelMove(by recurrence.Party) cycleMove {
	return func(r *record, d *CycleData, _ due.Date, now time.Time) (recurrence.CycleStatus, error) {
		switch st := recurrence.CycleStatus(r.status); {
		case st == recurrence.CycleCancelled:
			return st, errUnchanged
		case st.Final():
			return st, fmt.Errorf("%w: cycle %s is %s", ErrConflict, r.id, st)
		}
		if i := d.open(); i >= 0 {
			if err := endAttempt(d, i, recurrence.AttemptCancel, "", now); err != nil {
				return "", err
			}
		}
		d.CancelledBy = by
		return recurrence.CycleCancelled, nil
	}
}

// retryCycle is the receiver asking the cycle be tried again, to settle
// on day: a CREATED or ACTIVE cycle with no open attempt (the BCB refuses
// a retry while one is SOLICITADA or AGENDADA), as the recurrence's policy
// allows on the sandbox's day. The same day asked again once its attempt
// is there is answered as it is.
func (s *Sandbox) retryCycle(id string, day due.Date) (*record, error) {
	return s.moveCycle(id, func(r *record, d *CycleData, today due.Date, now time.Time) (recurrence.CycleStatus, error) {
		st := recurrence.CycleStatus(r.status)
		if last := d.Attempts[len(d.Attempts)-1]; last.Kind == recurrence.AttemptRetry && last.SettleOn == day {
			return st, errUnchanged
		}
		switch {
		case st.Final():
			return st, fmt.Errorf("%w: cycle %s is %s", ErrConflict, r.id, st)
		case d.open() >= 0:
			return st, fmt.Errorf("%w: cycle %s has an attempt still open", ErrConflict, r.id)
		}
		policy, next := s.policyOf(d)
		if err := policy.CheckRetry(d.DueDate, next, d.Retries, d.prevSettleOn(), day, today); err != nil {
			return st, fmt.Errorf("%w: %v", ErrConflict, err)
		}
		d.Attempts = append(d.Attempts, CycleAttempt{Kind: recurrence.AttemptRetry, SettleOn: day,
			Status: recurrence.AttemptRequested, At: now})
		d.Retries++
		return st, nil
	})
}

// cycleAnswer renders a control's outcome.
func (s *Sandbox) cycleAnswer(r *record, err error) (contract.RecurrenceCycle, error) {
	if r == nil {
		return contract.RecurrenceCycle{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return cycleView(r), err
}

func (s *Sandbox) handleAcceptCycle(w http.ResponseWriter, r *http.Request) {
	c, err := s.AcceptCycle(r.PathValue("id"))
	writeCycleControl(w, c, err)
}

func (s *Sandbox) handlePayCycle(w http.ResponseWriter, r *http.Request) {
	c, err := s.PayCycle(r.PathValue("id"))
	writeCycleControl(w, c, err)
}

func (s *Sandbox) handleRejectCycle(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Code string `json:"code"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	c, err := s.RejectCycle(r.PathValue("id"), body.Code)
	writeCycleControl(w, c, err)
}

func (s *Sandbox) handleExpireCycle(w http.ResponseWriter, r *http.Request) {
	c, err := s.ExpireCycle(r.PathValue("id"))
	writeCycleControl(w, c, err)
}

func (s *Sandbox) handlePayerCancelCycle(w http.ResponseWriter, r *http.Request) {
	c, err := s.PayerCancelCycle(r.PathValue("id"))
	writeCycleControl(w, c, err)
}

func (s *Sandbox) handleInspectCycle(w http.ResponseWriter, r *http.Request) {
	c, err := s.Cycle(r.PathValue("id"))
	writeCycleControl(w, c, err)
}

// writeCycleControl renders a cycle control's outcome as
// writeRecurrenceControl does a recurrence's.
func writeCycleControl(w http.ResponseWriter, c contract.RecurrenceCycle, err error) {
	if err != nil {
		writeControl(w, Transaction{}, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}
