package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
)

// v2CreatePayment is POST /v2/pix/payment: the same withdrawal as POST
// /api/v1/withdrawals, answered in the provider contract's shape. Its
// transactionId is the withdrawal's pix_id, PixGate's own, so it exists
// before the provider has seen the payment; consult-transaction finds it.
func (s *Server) v2CreatePayment(c *fiber.Ctx) error {
	return create(c, s.parseWithdrawalRequest, s.createWithdrawalAs(c),
		func(c *fiber.Ctx, _ payments.WithdrawalRequest, w storage.Transfer, _ bool) error {
			return c.JSON(contractview.Payment(w))
		})
}
