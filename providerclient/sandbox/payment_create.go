package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
)

// paymentRequest reads the amount raw, to validate it exactly, and tells an
// absent creditParty from an empty one.
type paymentRequest struct {
	contract.PaymentRequest
	Amount      json.RawMessage `json:"amount"`
	CreditParty *contract.Party `json:"creditParty"`
}

// handleCreatePayment is POST /v2/pix/payment: a PIX sent to creditParty's
// key. A known external_id returns the payment created for it and never pays
// twice.
func (s *Sandbox) handleCreatePayment(w http.ResponseWriter, r *http.Request) {
	var req paymentRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	amount := v.amount("amount", req.Amount)
	v.maxLen("external_id", req.ExternalID, contract.MaxExternalIDLen)
	v.maxLen("description", req.Description, contract.MaxShortTextLen)
	v.url("postbackUrl", req.PostbackURL)
	party := validateCreditParty(&v, req.CreditParty)
	if v.failed() {
		v.write(w)
		return
	}

	rec, _, err := s.createPayout(payoutSpec{
		id: newTransactionID(), externalID: req.ExternalID, amount: amount, description: req.Description,
		postbackURL: req.PostbackURL, creditParty: party,
	}, time.Now())
	var no refusal
	switch {
	case errors.Is(err, errInsufficient):
		writeError(w, http.StatusUnprocessableEntity, "insufficient balance")
		return
	case errors.As(err, &no):
		writeError(w, http.StatusUnprocessableEntity, no.Error())
		return
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	s.mu.Lock()
	resp := contract.Payment{
		TransactionID: rec.id, ExternalID: rec.externalID, Status: rec.status,
		Amount: rec.amount, Description: rec.description, CreditParty: rec.creditParty,
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// validateCreditParty checks the receiver of a payment and returns it with
// the key type canonical and the key and tax id normalized.
func validateCreditParty(v *validation, in *contract.Party) contract.Party {
	if in == nil {
		v.add("creditParty", "is required")
		return contract.Party{}
	}
	p := contract.Party{Name: strings.TrimSpace(in.Name)}
	if p.Name == "" {
		v.add("creditParty.name", "is required")
	}
	v.maxLen("creditParty.name", p.Name, contract.MaxNameLen)
	kt, err := pix.ParseKeyType(in.KeyType)
	if err != nil {
		v.addErr("creditParty.keyType", err)
	} else if p.Key, err = pix.NormalizeKey(kt, in.Key); err != nil {
		v.addErr("creditParty.key", err)
	}
	p.KeyType = string(kt)
	if p.TaxID, err = pix.NormalizeDocument(in.TaxID); err != nil {
		v.addErr("creditParty.taxId", err)
	}
	return p
}
