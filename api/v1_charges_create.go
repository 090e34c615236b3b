package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
)

// createCharge is POST /api/v1/charges: 201 with the new charge, 200 with
// the existing one for a replay. Provider failures leave the charge FAILED
// (see payments.Service.CreateCharge).
func (s *Server) createCharge(c *fiber.Ctx) error {
	return create(c, s.parseChargeRequest, s.payments.CreateCharge,
		func(c *fiber.Ctx, _ payments.ChargeRequest, ch storage.Charge, created bool) error {
			return c.Status(createdStatus(created)).JSON(s.viewCharge(ch))
		})
}
