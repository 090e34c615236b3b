package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// refundRequest reads the amount raw, to validate it exactly.
type refundRequest struct {
	contract.RefundRequest
	Amount json.RawMessage `json:"amount"`
}

// refundWindow is how long after payment a received PIX can be refunded.
const refundWindow = 90 * 24 * time.Hour

// handleCreateRefund is POST /v2/pix/refund: returns part or all of a PAID
// charge to its payer. The refunds of a charge (those not FAILED) never add
// up to more than its amount. A known external_id returns the refund created
// for it.
func (s *Sandbox) handleCreateRefund(w http.ResponseWriter, r *http.Request) {
	var req refundRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	if req.PixID == "" {
		v.add("pix_id", "is required")
	}
	amount := v.amount("amount", req.Amount)
	v.maxLen("description", req.Description, contract.MaxShortTextLen)
	v.maxLen("external_id", req.ExternalID, contract.MaxExternalIDLen)
	v.url("postbackUrl", req.PostbackURL)
	if v.failed() {
		v.write(w)
		return
	}

	status, body := s.familyRefund(req, amount, time.Now())
	writeJSON(w, status, body)
}

// familyRefund records the refund (or finds the one of the same
// external_id) and returns the answer to send.
func (s *Sandbox) familyRefund(req refundRequest, amount money.Money, now time.Time) (int, any) {
	rec, _, err := s.createRefund(refundSpec{
		id: newTransactionID(), externalID: req.ExternalID, chargeID: req.PixID, amount: amount,
		description: req.Description, postbackURL: req.PostbackURL,
	}, now)
	var no refusal
	switch {
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound, contract.Error{StatusCode: http.StatusNotFound, Message: "transaction not found"}
	case errors.As(err, &no):
		return http.StatusUnprocessableEntity, contract.Error{StatusCode: http.StatusUnprocessableEntity, Message: no.Error()}
	case errors.Is(err, errInsufficient):
		return http.StatusUnprocessableEntity, contract.Error{StatusCode: http.StatusUnprocessableEntity, Message: err.Error()}
	case err != nil:
		return http.StatusServiceUnavailable, contract.Error{StatusCode: http.StatusServiceUnavailable, Message: err.Error()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return http.StatusOK, contract.Refund{
		TransactionID: rec.id, PixID: rec.pixID, ExternalID: rec.externalID,
		Amount: rec.amount, Status: rec.status,
	}
}

// refundRefusal says why charge cannot be refunded by amount now, or "".
func refundRefusal(charge *record, amount money.Money, now time.Time) string {
	switch {
	case charge.kind != contract.TypeReceivePix:
		return "only a received PIX (a charge) can be refunded"
	case charge.status != contract.StatusPaid:
		return "the charge is " + charge.statusAt(now) + "; only a PAID charge can be refunded"
	case now.Sub(charge.approved) > refundWindow:
		return "the charge was paid more than 90 days ago"
	case charge.refunded+amount > charge.amount:
		return "amount exceeds the refundable amount of the charge (" + (charge.amount - charge.refunded).String() + ")"
	}
	return ""
}
