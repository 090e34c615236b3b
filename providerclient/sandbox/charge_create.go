package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
)

// chargeRequest reads the amount raw, to validate it exactly, and the due
// member raw, to name what is wrong in it.
type chargeRequest struct {
	contract.ChargeRequest
	Amount json.RawMessage `json:"amount"`
	Due    json.RawMessage `json:"due"`
}

// handleCreateCharge is POST /v2/pix/qrcode: a PENDING charge with a dynamic
// BR Code, a due-date charge with due (PixGate's extension; expiration is
// not taken). A known external_id returns the charge created for it.
func (s *Sandbox) handleCreateCharge(w http.ResponseWriter, r *http.Request) {
	var req chargeRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	amount := v.amount("amount", req.Amount)
	if amount > brcode.MaxAmount {
		v.add("amount", "is too large")
	}
	v.maxLen("external_id", req.ExternalID, contract.MaxExternalIDLen)
	v.url("postbackUrl", req.PostbackURL)
	v.maxLen("payerQuestion", req.PayerQuestion, contract.MaxShortTextLen)
	if req.Expiration < 0 {
		v.add("expiration", "must be a positive number of seconds")
	}
	var payer contract.Party
	if req.Payer != nil {
		payer = contract.Party{Name: strings.TrimSpace(req.Payer.Name), Email: strings.TrimSpace(req.Payer.Email)}
		v.maxLen("payer.name", payer.Name, contract.MaxNameLen)
		v.maxLen("payer.email", payer.Email, contract.MaxEmailLen)
		if payer.Email != "" && !strings.Contains(payer.Email, "@") {
			v.add("payer.email", "must be an email address")
		}
		// The family takes a payer with only a name, or an empty document:
		// only a document that is there must be a CPF or CNPJ.
		if doc := strings.TrimSpace(req.Payer.Document); doc != "" {
			norm, err := pix.NormalizeDocument(doc)
			if err != nil {
				v.addErr("payer.document", err)
			}
			payer.TaxID = norm
		}
	}
	now := time.Now()
	terms := v.dueTerms(req.Due, amount, payer, now)
	if v.failed() {
		v.write(w)
		return
	}

	rec, _, err := s.createCharge(chargeSpec{
		id: newTransactionID(), externalID: req.ExternalID, amount: amount, debtor: payer,
		description: req.PayerQuestion, postbackURL: req.PostbackURL, expiration: time.Duration(req.Expiration) * time.Second,
		due: terms,
	}, now)
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	s.mu.Lock()
	resp := contract.Charge{
		TransactionID: rec.id, ExternalID: rec.externalID, Status: rec.statusAt(time.Now()),
		Amount: rec.amount, QRCode: rec.qrcode,
		Calendar: contract.Calendar{Expiration: int(rec.expires.Sub(rec.created) / time.Second), DueDate: contract.FormatDate(rec.expires)},
		Debtor:   contract.Payer{Name: rec.debtor.Name, Document: rec.debtor.TaxID},
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}
