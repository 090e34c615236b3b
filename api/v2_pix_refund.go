package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
)

// v2CreateRefund is POST /v2/pix/refund: returns part or all of a paid
// charge to its payer (see payments.Service.CreateRefund). The answer's
// transactionId is the refund's pix_id, pix_id the charge's.
func (s *Server) v2CreateRefund(c *fiber.Ctx) error {
	return create(c, s.parseRefundRequest, s.payments.CreateRefund,
		func(c *fiber.Ctx, _ payments.RefundRequest, f storage.Transfer, _ bool) error {
			return c.JSON(contractview.Refund(f))
		})
}
