package sandbox

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence's cycles, as the receiver's provider and the payer's bank
// together see them: a face registers a cycle's charge (the BCB's cobr)
// for an APPROVED recurrence inside its scheduling window; the payer's
// bank schedules its first attempt, settles it or rejects it, through the
// controls (cycle_control.go); the receiver asks retries as the
// recurrence's policy allows. Every rule is the core's
// (storage/recurrence), counted on the sandbox's day (Today). A paid cycle
// moves money as a paid charge does: the balance, and a cash-in in each
// face's statement.

// cycleKind is a cycle record's kind.
const cycleKind = contract.TypeRecurrenceCycle

// CycleData is what a recurrence cycle's record holds besides a record's
// common fields (its amount, status, description, postbackUrl, creation,
// payment). Replaced, never changed in place, so that a refused commit
// restores it. A Store keeps it as JSON.
type CycleData struct {
	Recurrence    string         `json:"recurrence"` // the recurrence record's id
	N             int            `json:"n"`          // its number in the recurrence's calendar
	DueDate       due.Date       `json:"dueDate"`
	Attempts      []CycleAttempt `json:"attempts"`
	Retries       int            `json:"retries"` // retries asked (NTAG attempts)
	RejectionCode string         `json:"rejectionCode,omitempty"`
	// CancelledBy is who cancelled it (CANCELLED).
	CancelledBy recurrence.Party `json:"cancelledBy,omitempty"`
	// AutoRetry: the provider asks the retries itself (woovi).
	AutoRetry bool `json:"autoRetry,omitempty"`
}

// CycleAttempt is one try at settling a cycle.
type CycleAttempt struct {
	Kind          recurrence.AttemptKind   `json:"kind"`
	SettleOn      due.Date                 `json:"settleOn"`
	Status        recurrence.AttemptStatus `json:"status"`
	RejectionCode string                   `json:"rejectionCode,omitempty"`
	EndToEndID    string                   `json:"endToEndId,omitempty"`
	// At is when it reached its status.
	At time.Time `json:"at,omitzero"`
}

// clone is a copy of d whose attempts are its own.
func (d *CycleData) clone() CycleData {
	c := *d
	c.Attempts = slices.Clone(d.Attempts)
	return c
}

// open is the index of the attempt still waiting for its outcome, or -1.
func (d *CycleData) open() int {
	return slices.IndexFunc(d.Attempts, func(a CycleAttempt) bool { return a.Status.Open() })
}

// prevSettleOn is the day of the cycle's last attempt.
func (d *CycleData) prevSettleOn() due.Date {
	if len(d.Attempts) == 0 {
		return d.DueDate
	}
	return d.Attempts[len(d.Attempts)-1].SettleOn
}

// cycleSpec is a cycle to create.
type cycleSpec struct {
	id                       string // the face's id of it; "" → newTransactionID()
	externalID               string // the caller's id (PixGate's cycle id): a second create with it returns the first
	recurrence               string // the recurrence record's id
	dueDate                  due.Date
	amount                   money.Money
	description, postbackURL string
	autoRetry                bool
}

// createCycle registers a CREATED cycle of an APPROVED recurrence, its
// first attempt (AGND, on the due date) REQUESTED, or returns the one
// already created for sp.externalID (created false). A recurrence
// unknown is ErrNotFound; not APPROVED, a day outside the cycle's window
// or a live cycle already there for the same due date is ErrConflict; an
// amount not above zero or a day that is no due date of the calendar is a
// plain error.
func (s *Sandbox) createCycle(sp cycleSpec, now time.Time) (rec *record, created bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.lookupExternal(cycleKind, sp.externalID); old != nil {
		return old, false, nil
	}
	n, parent, err := s.checkCycle(sp, now)
	if err != nil {
		return nil, false, err
	}
	data := CycleData{Recurrence: parent.id, N: n, DueDate: sp.dueDate, AutoRetry: sp.autoRetry,
		Attempts: []CycleAttempt{{Kind: recurrence.AttemptFirst, SettleOn: sp.dueDate, Status: recurrence.AttemptRequested, At: now}}}
	rec = &record{kind: cycleKind, id: cmp.Or(sp.id, newTransactionID()), externalID: sp.externalID, amount: sp.amount,
		status: string(recurrence.CycleCreated), description: sp.description, postbackURL: sp.postbackURL,
		created: now, debtor: payerParty(parent.rec.Payer), cyc: &data}
	if err := s.commit(rec, func() { s.insert(rec) }); err != nil {
		return nil, false, err
	}
	return rec, true, nil
}

// checkCycle applies the BCB's rules to a cycle to create: its number in
// the calendar and its recurrence, or why not. Callers hold s.mu.
func (s *Sandbox) checkCycle(sp cycleSpec, now time.Time) (int, *record, error) {
	parent := s.records[sp.recurrence]
	if parent == nil || parent.kind != contract.TypeRecurrence {
		return 0, nil, ErrNotFound
	}
	if st := parent.statusAt(now); st != string(recurrence.RecurrenceApproved) {
		return 0, nil, fmt.Errorf("%w: recurrence %s is %s, not APPROVED", ErrConflict, parent.id, st)
	}
	if sp.amount <= 0 {
		return 0, nil, errors.New("amount must be greater than zero")
	}
	cal := parent.rec.Calendar
	n, ok := cal.Cycle(sp.dueDate)
	if d, _ := cal.Due(n); !ok || d != sp.dueDate {
		return 0, nil, fmt.Errorf("dueDate %s is not a due date of the recurrence's calendar", sp.dueDate)
	}
	if w, today := recurrence.ScheduleWindow(sp.dueDate), s.todayLocked(now); !w.Contains(today) {
		return 0, nil, fmt.Errorf("%w: a cycle due on %s is sent from %s to %s, not on %s", ErrConflict,
			sp.dueDate, w.Open, w.Close, today)
	}
	for _, o := range s.order {
		if o.kind == cycleKind && o.cyc.Recurrence == parent.id && o.cyc.N == n && cycleLive(o) {
			return 0, nil, fmt.Errorf("%w: cycle %s already charges the recurrence's cycle due on %s", ErrConflict,
				o.id, sp.dueDate)
		}
	}
	return n, parent, nil
}

// cycleLive reports whether a cycle still holds its place in the calendar:
// one rejected or cancelled leaves it to a new charge.
func cycleLive(r *record) bool {
	st := recurrence.CycleStatus(r.status)
	return st != recurrence.CycleRejected && st != recurrence.CycleCancelled
}

// payerParty is a recurrence's payer as a paid charge names who paid.
func payerParty(p contract.RecurrencePayer) contract.Party {
	return contract.Party{Name: p.Name, TaxID: p.Document, Email: p.Email}
}

// cycleByID is the cycle of record id, or the one created with id as its
// externalID; reading it first applies what the sandbox's day has ended
// (lapseCycle). Callers hold s.mu.
func (s *Sandbox) cycleByID(id string) *record {
	r := s.records[id]
	if r == nil || r.kind != cycleKind {
		r = s.lookupExternal(cycleKind, id)
	}
	if r == nil {
		return nil
	}
	// A store that refuses leaves it for the next read.
	_ = s.lapseCycle(r, time.Now())
	return r
}

// Cycle returns a cycle (by record id or external id) as the family's
// contract describes it.
func (s *Sandbox) Cycle(id string) (contract.RecurrenceCycle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.cycleByID(id)
	if r == nil {
		return contract.RecurrenceCycle{}, ErrNotFound
	}
	return cycleView(r), nil
}

// cycleView renders a cycle in the family's contract, the controls'
// answer too. Callers hold s.mu.
func cycleView(r *record) contract.RecurrenceCycle {
	d := r.cyc
	v := contract.RecurrenceCycle{
		TransactionType: r.kind, TransactionID: r.id, ExternalID: r.externalID, RecurrenceID: d.Recurrence,
		Status: r.status, DueDate: d.DueDate.String(), Amount: r.amount, Retries: d.Retries,
		Attempts: make([]contract.CycleAttempt, 0, len(d.Attempts)), RejectionCode: d.RejectionCode,
		CancelledBy: string(d.CancelledBy), EndToEndID: r.endToEndID, PaidAt: contract.FormatDate(r.approved),
		DateCreated: contract.FormatDate(r.created),
	}
	for _, a := range d.Attempts {
		v.Attempts = append(v.Attempts, contract.CycleAttempt{Type: string(a.Kind), SettleOn: a.SettleOn.String(),
			Status: string(a.Status), RejectionCode: a.RejectionCode, EndToEndID: a.EndToEndID})
	}
	if r.status == string(recurrence.CyclePaid) {
		p := r.paidBy
		v.Payer = &p
	}
	return v
}
