package api

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
)

// createWithdrawal is POST /api/v1/withdrawals: 201 once amount + fee are
// reserved and the send is recorded (see payments.Service.CreateWithdrawal),
// 200 for a replay.
func (s *Server) createWithdrawal(c *fiber.Ctx) error {
	return create(c, s.parseWithdrawalRequest, s.createWithdrawalAs(c),
		func(c *fiber.Ctx, _ payments.WithdrawalRequest, w storage.Transfer, created bool) error {
			return c.Status(createdStatus(created)).JSON(viewWithdrawal(w))
		})
}

// createWithdrawalAs is payments.CreateWithdrawal by the request's key,
// recorded as the withdrawal's creator (the one key that may not approve
// it when it awaits approval).
func (s *Server) createWithdrawalAs(c *fiber.Ctx) func(context.Context, storage.Integrator, payments.WithdrawalRequest) (storage.Transfer, bool, error) {
	key, _ := apiKeyOf(c)
	return func(ctx context.Context, in storage.Integrator, r payments.WithdrawalRequest) (storage.Transfer, bool, error) {
		r.CreatedBy = key.ID
		return s.payments.CreateWithdrawal(ctx, in, r)
	}
}
