package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// MED infractions, as the receiving provider sees them: a payer's bank
// reports a PIX the sandbox received (a paid charge) as a fraud; the
// sandbox keeps the infraction OPEN until it is closed through the
// control endpoints, AGREED (the sandbox returns the disputed amount to
// the payer itself: a MED_RETURN, settled like a refund), DISAGREED or
// CANCELLED. The family face notifies every change to the charge's
// postbackUrl, reads an infraction by consult-transaction and lists them
// (contract.PathInfractions); the efi face lists them at /v2/gn/infracoes
// and takes a defense.

// analysisDays is how long the analysis takes at most: the MED's 7 days.
const analysisDays = 7

// returnsMoney says whether a record of kind sends money of a charge back
// to its payer: a refund or a MED return.
func returnsMoney(kind string) bool {
	return kind == contract.TypeRefund || kind == contract.TypeMedReturn
}

// OpenInfraction opens a MED infraction on a PAID charge, disputing amount
// (zero: all the charge has not yet given back), and notifies it.
func (s *Sandbox) OpenInfraction(chargeID string, amount money.Money, reason string) (Transaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	charge := s.records[chargeID]
	if charge == nil || charge.kind != contract.TypeReceivePix {
		return Transaction{}, ErrNotFound
	}
	now := time.Now()
	if charge.status != contract.StatusPaid {
		return s.view(charge, now), fmt.Errorf("%w: charge is %s, not PAID", ErrConflict, charge.statusAt(now))
	}
	left := charge.amount - charge.refunded
	if amount == 0 {
		amount = left
	}
	if amount <= 0 || amount > charge.amount {
		return Transaction{}, fmt.Errorf("amount must be between 0.01 and the charge's %s", charge.amount)
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		reason = "the payer reports a fraud (sandbox)"
	}
	r := &record{kind: contract.TypeInfraction, id: newTransactionID(), amount: amount, status: contract.StatusOpen,
		description: truncate(reason, 2000), postbackURL: charge.postbackURL, created: now, pixID: charge.id,
		expires: now.Add(analysisDays * 24 * time.Hour)}
	if err := s.commit(r, func() { s.insert(r) }); err != nil {
		return Transaction{}, err
	}
	s.notifyLocked(r, now)
	return s.view(r, now), nil
}

// CloseInfraction closes an OPEN infraction with result (AGREED, DISAGREED
// or CANCELLED) and notifies it. AGREED returns the disputed amount to the
// payer: a MED_RETURN of the charge, PROCESSING until it settles like a
// refund (capped by what the charge has not yet given back).
func (s *Sandbox) CloseInfraction(id, result, analysis string) (Transaction, error) {
	result = strings.ToUpper(strings.TrimSpace(result))
	switch result {
	case contract.StatusAgreed, contract.StatusDisagreed, contract.StatusCancelled:
	default:
		return Transaction{}, errors.New("result must be AGREED, DISAGREED or CANCELLED")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeInfraction {
		return Transaction{}, ErrNotFound
	}
	now := time.Now()
	if r.status != contract.StatusOpen {
		return s.view(r, now), fmt.Errorf("%w: infraction is %s, not OPEN", ErrConflict, r.status)
	}
	charge := s.records[r.pixID]
	var ret *record
	if result == contract.StatusAgreed && charge != nil {
		if amount := min(r.amount, charge.amount-charge.refunded); amount > 0 {
			ret = &record{kind: contract.TypeMedReturn, id: newTransactionID(), amount: amount, status: contract.StatusProcessing,
				description: "MED return of infraction " + r.id, postbackURL: charge.postbackURL, created: now, pixID: charge.id,
				endToEndID: newEndToEndID('D', now)} // a devolução has its rtrId from the start
		}
	}
	err := s.commit(r, func() {
		r.status, r.analysis, r.approved = result, truncate(strings.TrimSpace(analysis), 2000), now
		if ret != nil {
			r.returnID = ret.id
		}
	})
	if err != nil {
		return Transaction{}, err
	}
	if ret != nil {
		err := s.commit(ret, func() {
			s.insert(ret)
			charge.refunded += ret.amount
			s.available -= ret.amount
			s.pending += ret.amount
		})
		if err != nil {
			return Transaction{}, err
		}
		s.scheduleSettle(ret)
	}
	s.notifyLocked(r, now)
	return s.view(r, now), nil
}

// DefendInfraction keeps the receiver's defense of an OPEN infraction
// (one per infraction).
func (s *Sandbox) DefendInfraction(id, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeInfraction {
		return ErrNotFound
	}
	switch {
	case r.status != contract.StatusOpen:
		return fmt.Errorf("%w: infraction is %s, not OPEN", ErrConflict, r.status)
	case r.defense != "":
		return fmt.Errorf("%w: the infraction already has a defense", ErrConflict)
	}
	return s.commit(r, func() { r.defense = truncate(strings.TrimSpace(text), 2000) })
}

func (s *Sandbox) handleOpenInfraction(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Amount json.RawMessage `json:"amount"`
		Reason string          `json:"reason"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	var amount money.Money
	if len(body.Amount) > 0 && string(body.Amount) != "null" {
		var v validation
		if amount = v.amount("amount", body.Amount); v.failed() {
			v.write(w)
			return
		}
	}
	t, err := s.OpenInfraction(r.PathValue("id"), amount, body.Reason)
	writeControl(w, t, err)
}

func (s *Sandbox) handleCloseInfraction(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Result   string `json:"result"`
		Analysis string `json:"analysis"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	t, err := s.CloseInfraction(r.PathValue("id"), body.Result, body.Analysis)
	writeControl(w, t, err)
}

// lastChange is when an infraction was last changed: opened, or closed.
func lastChange(r *record) time.Time {
	if r.approved.After(r.created) {
		return r.approved
	}
	return r.created
}
