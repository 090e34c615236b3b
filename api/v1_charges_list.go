package api

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// chargeStatuses are the values of the status filter, in lifecycle order.
var chargeStatuses = statusNames(storage.ChargeStatuses)

// statusNames are a record kind's statuses as the API writes them.
func statusNames[S ~string](statuses []S) []string {
	out := make([]string, len(statuses))
	for i, s := range statuses {
		out[i] = string(s)
	}
	return out
}

// listCharges is GET /api/v1/charges: newest first, per_page, status, cursor.
func (s *Server) listCharges(c *fiber.Ctx) error {
	p, err := listParams(c, chargeStatuses)
	if err != nil {
		return err
	}
	items, more, err := s.payments.Charges(c.UserContext(), p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, s.viewCharge, func(ch storage.Charge) uuid.UUID { return ch.ID }))
}
