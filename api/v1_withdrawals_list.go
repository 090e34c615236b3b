package api

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// withdrawalStatuses are the values of the status filter: a transfer's,
// and AWAITING_APPROVAL, which only withdrawals take.
var withdrawalStatuses = func() []string {
	s := []string{string(storage.TransferAwaitingApproval)}
	for _, st := range storage.TransferStatuses {
		s = append(s, string(st))
	}
	return s
}()

// listWithdrawals is GET /api/v1/withdrawals: newest first, per_page,
// status, cursor.
func (s *Server) listWithdrawals(c *fiber.Ctx) error {
	p, err := listParams(c, withdrawalStatuses)
	if err != nil {
		return err
	}
	items, more, err := s.payments.Withdrawals(c.UserContext(), p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, viewWithdrawal, func(w storage.Transfer) uuid.UUID { return w.ID }))
}
