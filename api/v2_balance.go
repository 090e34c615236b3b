package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient/contractview"
)

// v2Balance is POST /v2/balance, the provider contract's balance: balance
// is what the integrator holds (available plus pending); money reserved for
// transfers in flight is in neither. The request has no fields; any body is
// ignored.
func (s *Server) v2Balance(c *fiber.Ctx) error {
	w, err := s.payments.Balance(c.UserContext(), integratorIDOf(c))
	if err != nil {
		return err
	}
	return c.JSON(contractview.Balance(w))
}
