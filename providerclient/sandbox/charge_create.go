package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
)

type chargeRequest struct {
	Amount        json.RawMessage `json:"amount"`
	ExternalID    string          `json:"external_id"`
	PostbackURL   string          `json:"postbackUrl"`
	PayerQuestion string          `json:"payerQuestion"`
	Payer         *payerInput     `json:"payer"`
}

type payerInput struct {
	Name     string `json:"name"`
	Document string `json:"document"`
	Email    string `json:"email"`
}

type chargeResponse struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id"`
	Status        string      `json:"status"`
	Amount        money.Money `json:"amount"`
	Calendar      calendar    `json:"calendar"`
	Debtor        debtor      `json:"debtor"`
	QRCode        string      `json:"qrcode"`
}

type calendar struct {
	Expiration int    `json:"expiration"`
	DueDate    string `json:"dueDate"`
}

type debtor struct {
	Name     string `json:"name"`
	Document string `json:"document"`
}

const maxExternalID = 128

// handleCreateCharge is POST /v2/pix/qrcode: a PENDING charge with a dynamic
// BR Code. A known external_id returns the charge created for it.
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
	v.maxLen("external_id", req.ExternalID, maxExternalID)
	v.url("postbackUrl", req.PostbackURL)
	v.maxLen("payerQuestion", req.PayerQuestion, 140)
	var payer Party
	if req.Payer != nil {
		payer = Party{Name: strings.TrimSpace(req.Payer.Name), Email: strings.TrimSpace(req.Payer.Email)}
		v.maxLen("payer.name", payer.Name, 140)
		v.maxLen("payer.email", payer.Email, 254)
		if payer.Email != "" && !strings.Contains(payer.Email, "@") {
			v.add("payer.email", "must be an email address")
		}
		doc, err := pix.NormalizeDocument(req.Payer.Document)
		if err != nil {
			v.addErr("payer.document", err)
		}
		payer.TaxID = doc
	}
	if v.failed() {
		v.write(w)
		return
	}

	now := time.Now()
	loc := s.cfg.PublicHost + "/qr/v2/" + newLocationTxID()
	code, err := brcode.Encode(brcode.Payload{
		MerchantName: s.cfg.MerchantName, MerchantCity: s.cfg.MerchantCity,
		Location: loc, Amount: amount,
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "cannot encode the BR Code")
		return
	}
	rec := &record{
		kind: TypeCharge, id: newTransactionID(), externalID: req.ExternalID,
		amount: amount, status: StatusPending, postbackURL: req.PostbackURL,
		description: req.PayerQuestion, created: now, expires: now.Add(s.cfg.ChargeExpiration),
		debtor: payer, qrcode: code,
	}
	s.mu.Lock()
	if old := s.lookupExternal(TypeCharge, req.ExternalID); old != nil {
		rec = old
	} else {
		s.insert(rec)
		s.stats.add(&s.stats.charges)
	}
	resp := chargeResponse{
		TransactionID: rec.id, ExternalID: rec.externalID, Status: rec.statusAt(now),
		Amount: rec.amount, QRCode: rec.qrcode,
		Calendar: calendar{Expiration: int(rec.expires.Sub(rec.created) / time.Second), DueDate: formatDate(rec.expires)},
		Debtor:   debtor{Name: rec.debtor.Name, Document: rec.debtor.TaxID},
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}
