package sandbox

import (
	"errors"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// How a cycle moves: every change is a copy of its data and a status
// checked against the core's transitions, committed (with the money of a
// payment) and notified. A move that finds the cycle already where it
// leads (errUnchanged) changes nothing and is no error.

// errUnchanged: the move is a repeat; the cycle is answered as it is.
var errUnchanged = errors.New("unchanged")

// cycleMove changes a copy of a cycle's data, on the sandbox's day today,
// and says the cycle's status after it. r is the cycle as it is.
type cycleMove func(r *record, d *CycleData, today due.Date, now time.Time) (recurrence.CycleStatus, error)

// moveCycle applies move to cycle id (record id or external id) now.
func (s *Sandbox) moveCycle(id string, move cycleMove) (*record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.cycleByID(id)
	if r == nil {
		return nil, ErrNotFound
	}
	now := time.Now()
	d := r.cyc.clone()
	to, err := move(r, &d, s.todayLocked(now), now)
	switch {
	case errors.Is(err, errUnchanged):
		return r, nil
	case err != nil:
		return r, err
	}
	return r, s.applyCycle(r, d, to, now)
}

// applyCycle commits cycle r's new data and status, crediting the account
// when it is paid now, and notifies it. Callers hold s.mu.
func (s *Sandbox) applyCycle(r *record, d CycleData, to recurrence.CycleStatus, now time.Time) error {
	if to != recurrence.CycleStatus(r.status) {
		if _, err := recurrence.CycleStatus(r.status).Transition(cycleEvent(to)); err != nil {
			return fmt.Errorf("%w: %v", ErrConflict, err)
		}
	}
	err := s.commit(r, func() {
		r.cyc, r.status = &d, string(to)
		if to == recurrence.CyclePaid {
			// The money moves as when a charge is paid: the recurrence's
			// payer pays it, and it joins the available balance.
			r.approved, r.paidBy = now, r.debtor
			r.endToEndID = d.Attempts[len(d.Attempts)-1].EndToEndID
			s.available += r.amount
		}
	})
	if err != nil {
		return err
	}
	s.notifyLocked(r, now)
	return nil
}

// cycleEvent is the event that leads a live cycle to status to.
func cycleEvent(to recurrence.CycleStatus) recurrence.CycleEvent {
	switch to {
	case recurrence.CycleActive:
		return recurrence.CycleAccept
	case recurrence.CyclePaid:
		return recurrence.CyclePay
	case recurrence.CycleExpired:
		return recurrence.CycleExpire
	case recurrence.CycleRejected:
		return recurrence.CycleReject
	case recurrence.CycleCancelled:
		return recurrence.CycleCancel
	}
	return recurrence.CycleSend
}

// endAttempt moves d's open attempt i by e, with a rejection code for a
// rejection. The attempt's status is the core's.
func endAttempt(d *CycleData, i int, e recurrence.AttemptEvent, code string, now time.Time) error {
	a := &d.Attempts[i]
	to, err := a.Status.Transition(e)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConflict, err)
	}
	a.Status, a.RejectionCode, a.At = to, code, now
	return nil
}

// policyOf is the retry policy and the next cycle's due date (zero for
// the last) of a cycle's recurrence. Callers hold s.mu.
func (s *Sandbox) policyOf(d *CycleData) (recurrence.RetryPolicy, due.Date) {
	parent := s.records[d.Recurrence]
	if parent == nil || parent.rec == nil {
		return recurrence.RetryNone, due.Date{}
	}
	next, _ := parent.rec.Calendar.Due(d.N + 1)
	return parent.rec.RetryPolicy, next
}

// afterFailure is where a cycle whose attempt failed (rejected with a
// code that leaves it to the policy, or expired) stands on today: a
// provider that retries by itself has its next retry asked at once;
// otherwise the cycle waits for the receiver's retry while one can still
// come, and expires when none can. Callers hold s.mu.
func (s *Sandbox) afterFailure(r *record, d *CycleData, today due.Date, now time.Time) recurrence.CycleStatus {
	policy, next := s.policyOf(d)
	day, ok := policy.NextRetry(d.DueDate, next, d.Retries, d.prevSettleOn(), today)
	switch {
	case !ok:
		return recurrence.CycleExpired
	case d.AutoRetry:
		d.Attempts = append(d.Attempts, CycleAttempt{Kind: recurrence.AttemptRetry, SettleOn: day,
			Status: recurrence.AttemptRequested, At: now})
		d.Retries++
	}
	return recurrence.CycleStatus(r.status)
}

// lapseCycle expires cycle r when it waits for a retry that can no longer
// come on the sandbox's day (the policy's retries spent, or the retry
// range passed). Callers hold s.mu.
func (s *Sandbox) lapseCycle(r *record, now time.Time) error {
	st := recurrence.CycleStatus(r.status)
	if st.Final() || r.cyc.open() >= 0 {
		return nil
	}
	d := r.cyc.clone()
	if s.afterFailure(r, &d, s.todayLocked(now), now) != recurrence.CycleExpired {
		return nil
	}
	return s.applyCycle(r, d, recurrence.CycleExpired, now)
}

// cancelCyclesOf cancels the live cycles of recurrence id, which has just
// ended, on behalf of by (who ended it), each notified. Callers hold s.mu.
func (s *Sandbox) cancelCyclesOf(id string, by recurrence.Party, now time.Time) error {
	for _, r := range s.order {
		if r.kind != cycleKind || r.cyc.Recurrence != id || recurrence.CycleStatus(r.status).Final() {
			continue
		}
		d := r.cyc.clone()
		to, err := cancelMove(by)(r, &d, s.todayLocked(now), now)
		if err == nil {
			err = s.applyCycle(r, d, to, now)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
