package sandbox

import (
	"encoding/json"
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

	status, body := s.createRefund(req, amount, time.Now())
	writeJSON(w, status, body)
}

// createRefund records the refund (or finds the one of the same
// external_id) and returns the answer to send.
func (s *Sandbox) createRefund(req refundRequest, amount money.Money, now time.Time) (int, any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.lookupExternal(contract.TypeRefund, req.ExternalID)
	if rec == nil {
		charge := s.records[req.PixID]
		if charge == nil {
			return http.StatusNotFound, contract.Error{StatusCode: http.StatusNotFound, Message: "transaction not found"}
		}
		msg := refundRefusal(charge, amount, now)
		if msg == "" && s.available < amount {
			msg = "insufficient balance"
		}
		if msg != "" {
			return http.StatusUnprocessableEntity, contract.Error{StatusCode: http.StatusUnprocessableEntity, Message: msg}
		}
		rec = &record{
			kind: contract.TypeRefund, id: newTransactionID(), externalID: req.ExternalID,
			amount: amount, status: contract.StatusProcessing, description: req.Description,
			postbackURL: req.PostbackURL, created: now, pixID: charge.id,
		}
		err := s.commit(rec, func() {
			s.insert(rec)
			charge.refunded += amount
			s.available -= amount
			s.pending += amount
		})
		if err != nil {
			return http.StatusServiceUnavailable, contract.Error{StatusCode: http.StatusServiceUnavailable, Message: err.Error()}
		}
		s.scheduleSettle(rec)
		s.stats.add(&s.stats.refunds)
	}
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
