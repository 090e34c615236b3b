package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
)

// v2CreateCharge is POST /v2/pix/qrcode: the same charge as POST
// /api/v1/charges (same body, same rules, same idempotency), answered in
// the provider contract's shape.
func (s *Server) v2CreateCharge(c *fiber.Ctx) error {
	return create(c, s.parseChargeRequest, s.payments.CreateCharge,
		func(c *fiber.Ctx, _ payments.ChargeRequest, ch storage.Charge, _ bool) error {
			return c.JSON(contractview.Charge(ch))
		})
}
