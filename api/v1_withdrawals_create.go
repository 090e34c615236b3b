package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
)

// createWithdrawal is POST /api/v1/withdrawals: 201 once amount + fee are
// reserved and the send is recorded (see payments.Service.CreateWithdrawal),
// 200 for a replay.
func (s *Server) createWithdrawal(c *fiber.Ctx) error {
	return create(c, s.parseWithdrawalRequest, s.payments.CreateWithdrawal,
		func(c *fiber.Ctx, _ payments.WithdrawalRequest, w storage.Transfer, created bool) error {
			return c.Status(createdStatus(created)).JSON(viewWithdrawal(w))
		})
}
