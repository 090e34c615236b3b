package sandbox

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// record is the sandbox's state of one charge, payment, refund, MED
// infraction, MED return, recurrence or recurrence cycle. Records
// are only read and written under Sandbox.mu.
type record struct {
	kind        string
	id          string
	externalID  string
	amount      money.Money
	status      string
	description string
	postbackURL string
	created     time.Time
	approved    time.Time // zero until paid or completed
	endToEndID  string
	failure     string

	// charges
	expires  time.Time
	debtor   contract.Party // payer named at creation
	paidBy   contract.Party // who paid
	qrcode   string
	refunded money.Money // refunds not failed
	due      *due.Terms  // a due-date charge's terms; amount is due.Original

	// payments
	creditParty contract.Party

	// refunds, MED returns and infractions: the charge
	pixID string

	// infractions (expires is when the analysis is due, approved when it
	// closed, description the payer's report)
	analysis, defense string
	returnID          string // the MED return of an agreed one

	// recurrences (expires is the consent's deadline, approved when the
	// payer consented, amount the fixed amount or 0); replaced, never
	// changed in place, so that a refused commit restores it
	rec *RecurrenceData

	// recurrence cycles (debtor is the recurrence's payer, approved and
	// paidBy its payment's); replaced, never changed in place, as rec
	cyc *CycleData
}

// statusAt reports the status at now: a PENDING charge past its expiration
// is EXPIRED, and so is a CREATED recurrence past its consent's deadline.
func (r *record) statusAt(now time.Time) string {
	if r.kind == contract.TypeReceivePix && r.status == contract.StatusPending && !now.Before(r.expires) {
		return contract.StatusExpired
	}
	if r.kind == contract.TypeRecurrence && r.status == string(recurrence.RecurrenceCreated) && !now.Before(r.expires) {
		return contract.StatusExpired
	}
	return r.status
}

func (s *Sandbox) externalKey(kind, externalID string) string {
	return kind + "\x00" + externalID
}

// lookupExternal returns the record already created for kind and
// externalID, if any. Callers hold s.mu.
func (s *Sandbox) lookupExternal(kind, externalID string) *record {
	if externalID == "" {
		return nil
	}
	return s.records[s.byExternal[s.externalKey(kind, externalID)]]
}

// insert stores a new record. Callers hold s.mu.
func (s *Sandbox) insert(r *record) {
	s.records[r.id] = r
	s.order = append(s.order, r)
	if r.externalID != "" {
		s.byExternal[s.externalKey(r.kind, r.externalID)] = r.id
	}
}

// remove forgets a record just inserted whose creation the store refused.
// Callers hold s.mu.
func (s *Sandbox) remove(r *record) {
	delete(s.records, r.id)
	if key := s.externalKey(r.kind, r.externalID); r.externalID != "" && s.byExternal[key] == r.id {
		delete(s.byExternal, key)
	}
	for i := len(s.order) - 1; i >= 0; i-- {
		if s.order[i] == r {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}
