package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Payer is who pays a charge through PayCharge.
type Payer struct {
	Name     string `json:"name"`
	Document string `json:"document"`
	Email    string `json:"email"`
}

// defaultPayer pays charges created without a payer.
func defaultPayer() contract.Party {
	return contract.Party{Name: "PAGADOR SANDBOX", TaxID: "52998224725"}
}

// PayCharge pays a PENDING charge as a payer's bank would: the charge becomes
// PAID, the amount joins the available balance and a RECEIVEPIX notification
// goes to its postback URL. A payer without a document means the payer named
// at creation, whose missing name or tax id the fixed sandbox payer lends.
func (s *Sandbox) PayCharge(id string, payer Payer) (Transaction, error) {
	return s.PayChargeAt(id, payer, time.Now())
}

// PayChargeAt is PayCharge with the payment made at at (its approval
// time): a due-date charge asks the amount of that day in Brasília (fine
// and interest when late, discount when early), and refuses a day past
// its validity.
func (s *Sandbox) PayChargeAt(id string, payer Payer, at time.Time) (Transaction, error) {
	return s.payCharge(id, payer, at, 0)
}

// PayChargePart is PayChargeAt with the payer's bank paying amount instead
// of what the charge asks: an anomaly (a payer's bank pays what the
// charge's location says), for the tests of what PixGate does with a
// payment of another amount than its charge's.
func (s *Sandbox) PayChargePart(id string, payer Payer, at time.Time, amount money.Money) (Transaction, error) {
	if amount <= 0 {
		return Transaction{}, errors.New("amount must be greater than zero")
	}
	return s.payCharge(id, payer, at, amount)
}

// payCharge pays the charge at at, amount when not 0, else what it asks.
func (s *Sandbox) payCharge(id string, payer Payer, at time.Time, paid money.Money) (Transaction, error) {
	by := contract.Party{Name: strings.TrimSpace(payer.Name), Email: strings.TrimSpace(payer.Email)}
	if payer.Document != "" {
		doc, err := pix.NormalizeDocument(payer.Document)
		if err != nil {
			return Transaction{}, errors.New("payer.document " + err.Error())
		}
		by.TaxID = doc
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeReceivePix {
		return Transaction{}, ErrNotFound
	}
	return s.payLocked(r, by, at, paid)
}

// payLocked pays the charge r at now, as payCharge says; the payer's
// approval of a recurrence pays its first payment so too. Callers hold
// s.mu.
func (s *Sandbox) payLocked(r *record, by contract.Party, now time.Time, paid money.Money) (Transaction, error) {
	if st := r.statusAt(now); st != contract.StatusPending {
		return s.view(r, now), fmt.Errorf("%w: charge is %s, not PENDING", ErrConflict, st)
	}
	amount := r.amount
	if r.due != nil {
		b, err := r.due.AmountOn(due.Today(now))
		if err != nil {
			return s.view(r, now), fmt.Errorf("%w: %v", ErrConflict, err)
		}
		amount = b.Total
	}
	if paid > 0 {
		amount = paid
	}
	if by.TaxID == "" { // the payer named at creation, completed by the sandbox's own
		by = r.debtor
	}
	if by.TaxID == "" {
		by.TaxID = defaultPayer().TaxID
	}
	if by.Name == "" {
		by.Name = defaultPayer().Name
	}
	err := s.commit(r, func() {
		r.status, r.approved, r.paidBy, r.amount = contract.StatusPaid, now, by, amount
		r.endToEndID = newEndToEndID('E', now)
		s.available += r.amount
	})
	if err != nil {
		return Transaction{}, err
	}
	s.notifyLocked(r, now)
	return s.view(r, now), nil
}

// ExpireCharge makes a PENDING charge expire now: it reports EXPIRED, can
// no longer be paid, and its postback URL is notified, as a provider does
// when a charge expires.
func (s *Sandbox) ExpireCharge(id string) (Transaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeReceivePix {
		return Transaction{}, ErrNotFound
	}
	now := time.Now()
	if st := r.statusAt(now); st != contract.StatusPending {
		return s.view(r, now), fmt.Errorf("%w: charge is %s, not PENDING", ErrConflict, st)
	}
	if err := s.commit(r, func() { r.expires = now }); err != nil {
		return Transaction{}, err
	}
	s.notifyLocked(r, now)
	return s.view(r, now), nil
}

func (s *Sandbox) handlePay(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Payer Payer `json:"payer"`
		// At is when the payer's bank pays (RFC 3339); now when absent.
		At *time.Time `json:"at"`
		// Amount, when set, is paid instead of what the charge asks (an
		// anomaly, for tests).
		Amount json.RawMessage `json:"amount"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	at := time.Now()
	if body.At != nil {
		at = *body.At
	}
	var t Transaction
	var err error
	if len(body.Amount) > 0 {
		var v validation
		amount := v.amount("amount", body.Amount)
		if v.failed() {
			v.write(w)
			return
		}
		t, err = s.PayChargePart(r.PathValue("id"), body.Payer, at, amount)
	} else {
		t, err = s.PayChargeAt(r.PathValue("id"), body.Payer, at)
	}
	writeControl(w, t, err)
}

func (s *Sandbox) handleExpire(w http.ResponseWriter, r *http.Request) {
	t, err := s.ExpireCharge(r.PathValue("id"))
	writeControl(w, t, err)
}

func (s *Sandbox) handleSettle(w http.ResponseWriter, r *http.Request) {
	t, err := s.Settle(r.PathValue("id"))
	writeControl(w, t, err)
}

func (s *Sandbox) handleFail(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Reason string `json:"reason"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	t, err := s.Fail(r.PathValue("id"), body.Reason)
	writeControl(w, t, err)
}

func (s *Sandbox) handleInspect(w http.ResponseWriter, r *http.Request) {
	t, err := s.Transaction(r.PathValue("id"))
	writeControl(w, t, err)
}

// writeControl renders a control method's outcome: the transaction, or 404,
// 409, 422 or 503 (the store did not take the change).
func writeControl(w http.ResponseWriter, t Transaction, err error) {
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, t)
	case errors.Is(err, ErrStore):
		writeError(w, http.StatusServiceUnavailable, err.Error())
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, ErrConflict):
		writeError(w, http.StatusConflict, err.Error())
	default:
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	}
}
