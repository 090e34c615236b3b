package api

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// createChargeRefund is POST /api/v1/charges/{charge}/refunds: part or all
// of a paid charge back to its payer (see payments.Service.RefundCharge),
// 201 with the new refund, 200 with the existing one for a replay. Like a
// withdrawal it reserves amount + cash-out fee at once.
func (s *Server) createChargeRefund(c *fiber.Ctx) error {
	ref, err := pathRef(c, "charge")
	if err != nil {
		return err
	}
	refund := func(ctx context.Context, in storage.Integrator, r payments.RefundRequest) (storage.Transfer, bool, error) {
		return s.payments.RefundCharge(ctx, in, ref, r)
	}
	return create(c, s.parseChargeRefundRequest, refund,
		func(c *fiber.Ctx, _ payments.RefundRequest, f storage.Transfer, created bool) error {
			return c.Status(createdStatus(created)).JSON(viewRefund(f))
		})
}

// listChargeRefunds is GET /api/v1/charges/{charge}/refunds: the charge's
// refunds, newest first, paged as every v1 list.
func (s *Server) listChargeRefunds(c *fiber.Ctx) error {
	ref, err := pathRef(c, "charge")
	if err != nil {
		return err
	}
	p, err := listParams(c, withdrawalStatuses)
	if err != nil {
		return err
	}
	items, more, err := s.payments.ChargeRefunds(c.UserContext(), p.IntegratorID, ref, p)
	if err != nil {
		return err
	}
	return c.JSON(page(items, more, p.Limit, viewRefund, func(f storage.Transfer) uuid.UUID { return f.ID }))
}

// refundView is the v1 refund record: a withdrawal's fields, but the money
// goes back to the charge's payer, so the charge instead of a creditParty.
type refundView struct {
	ID            string      `json:"id"`
	ExternalID    *string     `json:"external_id"`
	ChargeID      string      `json:"charge_id"`
	ChargePixID   string      `json:"charge_pix_id"`
	Amount        money.Money `json:"amount"`
	Fee           money.Money `json:"fee"`
	Total         money.Money `json:"total"`
	Status        string      `json:"status"`
	Description   *string     `json:"description"`
	PixID         string      `json:"pix_id"`
	EndToEndID    *string     `json:"end_to_end_id"`
	FailureReason *string     `json:"failure_reason"`
	CreatedAt     timestamp   `json:"created_at"`
	UpdatedAt     timestamp   `json:"updated_at"`
	FinishedAt    *timestamp  `json:"finished_at"`
	Provider      string      `json:"provider"`
}

func viewRefund(f storage.Transfer) refundView {
	return refundView{
		ID: f.ID.String(), ExternalID: f.ExternalID, ChargeID: f.ChargeID.String(), ChargePixID: f.ChargePixID,
		Amount: f.Amount, Fee: f.Fee, Total: f.Total(), Status: string(f.Status), Description: f.Description,
		PixID: f.PublicPixID(), EndToEndID: f.EndToEndID, FailureReason: f.FailureReason,
		CreatedAt: timestamp(f.CreatedAt), UpdatedAt: timestamp(f.UpdatedAt), FinishedAt: timePtr(f.FinishedAt),
		Provider: f.Provider,
	}
}
