package api

import (
	"github.com/gofiber/fiber/v2"
)

// getWithdrawal is GET /api/v1/withdrawals/{withdrawal}: by UUID or
// external_id. Another integrator's withdrawal is 404.
func (s *Server) getWithdrawal(c *fiber.Ctx) error {
	ref, err := pathRef(c, "withdrawal")
	if err != nil {
		return err
	}
	w, err := s.payments.Withdrawal(c.UserContext(), integratorIDOf(c), ref)
	if err != nil {
		return err
	}
	return c.JSON(viewWithdrawal(w))
}
