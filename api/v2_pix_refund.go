package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
)

// v2CreateRefund is POST /v2/pix/refund: returns part or all of a paid
// charge to its payer (see payments.Service.CreateRefund). The answer's
// transactionId is the refund's pix_id, pix_id the charge's.
func (s *Server) v2CreateRefund(c *fiber.Ctx) error {
	return create(c, s.parseRefund, s.payments.CreateRefund,
		func(c *fiber.Ctx, req payments.RefundRequest, f storage.Refund, _ bool) error {
			return c.JSON(contract.Refund{TransactionID: f.PublicPixID(), PixID: req.PixID, ExternalID: deref(f.ExternalID),
				Amount: f.Amount, Status: f.Status})
		})
}

// parseRefund validates a refund body: pix_id, amount, description, and
// external_id, PixGate's addition that makes a retry safe.
func (s *Server) parseRefund(body object) (payments.RefundRequest, error) {
	var r payments.RefundRequest
	r.PixID, _ = body.text("pix_id", contract.MaxPixIDLen, true)
	r.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	r.Description = body.optionalText("description", maxShortTextLen)
	r.ExternalID, _ = body.externalID()
	return r, body.errs.err()
}
