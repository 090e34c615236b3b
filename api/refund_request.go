package api

import (
	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// parseRefundRequest reads a refund request's body into a
// payments.RefundRequest: pix_id, amount, description, and external_id,
// PixGate's addition that makes a retry safe.
func (s *Server) parseRefundRequest(body object) (payments.RefundRequest, error) {
	var r payments.RefundRequest
	r.PixID, _ = body.text("pix_id", contract.MaxPixIDLen, true)
	r.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	r.Description = body.optionalText("description", maxShortTextLen)
	r.ExternalID, _ = body.externalID()
	return r, body.errs.err()
}

// parseChargeRefundRequest reads the body of v1's refund of a charge, which
// the path names: amount, and optionally description and external_id.
func (s *Server) parseChargeRefundRequest(body object) (payments.RefundRequest, error) {
	var r payments.RefundRequest
	r.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	r.Description = body.optionalText("description", maxShortTextLen)
	r.ExternalID, _ = body.externalID()
	return r, body.errs.err()
}
