package api

import (
	"fmt"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// createWithdrawal is POST /api/v1/withdrawals. One SQL transaction reserves
// amount + cash-out fee, inserts the withdrawal PROCESSING and the outbox
// row that asks a worker to send it; the answer comes after the commit, so
// a 201 always means the money is reserved and the send will happen. The
// provider is never called here.
func (s *Server) createWithdrawal(c *fiber.Ctx) error {
	ctx, integratorID := c.UserContext(), integratorIDOf(c)
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	in, err := s.parseWithdrawal(body)
	if err != nil {
		return err
	}
	integrator := integratorOf(c)
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("withdrawal id: %w", err)
	}
	send := tasks.WithdrawalSendMessage(id, 0)
	w, created, err := s.deps.DB.CreateWithdrawal(ctx, storage.NewWithdrawal{
		ID: id, IntegratorID: integratorID, ExternalID: in.ExternalID,
		Amount: in.Amount, Fee: integrator.CashOut.Compute(in.Amount),
		CreditParty: in.CreditParty, Description: in.Description, PostbackURL: in.PostbackURL,
		RequestHash: in.hash(),
		Outbox:      []storage.OutboxMessage{storage.OutboxMessage(send)},
	})
	if err != nil {
		return err // insufficient funds (422) and idempotency conflicts (409) are mapped in errors.go
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.Status(status).JSON(viewWithdrawal(w))
}
