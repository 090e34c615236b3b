package api

import (
	"github.com/gofiber/fiber/v2"
)

// getCharge is GET /api/v1/charges/{charge}: by UUID or external_id.
// Another integrator's charge is 404, exactly like one that does not exist.
func (s *Server) getCharge(c *fiber.Ctx) error {
	ref, err := pathRef(c, "charge")
	if err != nil {
		return err
	}
	ch, err := s.payments.Charge(c.UserContext(), integratorIDOf(c), ref)
	if err != nil {
		return err
	}
	return c.JSON(s.viewCharge(ch))
}
