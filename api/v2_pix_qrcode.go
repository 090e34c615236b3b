package api

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
)

// v2CreateCharge is POST /v2/pix/qrcode: the same charge as POST
// /api/v1/charges (same body, same rules, same idempotency), answered in
// the provider contract's shape.
func (s *Server) v2CreateCharge(c *fiber.Ctx) error {
	return create(c, s.parseCharge, s.payments.CreateCharge,
		func(c *fiber.Ctx, _ payments.ChargeRequest, ch storage.Charge, _ bool) error {
			return c.JSON(v2ChargeView(ch))
		})
}

// v2ChargeView is the contract's charge: transactionId is the pix_id, the
// validity counted from the charge's creation.
func v2ChargeView(ch storage.Charge) contract.Charge {
	v := contract.Charge{
		TransactionID: deref(ch.PixID), ExternalID: ch.ExternalID, Status: ch.Status, Amount: ch.Amount,
		Debtor: contract.Payer{Name: ch.Payer.Name, Document: ch.Payer.Document}, QRCode: deref(ch.QRCode),
	}
	if ch.ExpiresAt != nil {
		v.Calendar = contract.Calendar{Expiration: int(ch.ExpiresAt.Sub(ch.CreatedAt).Round(time.Second) / time.Second),
			DueDate: contract.FormatDate(*ch.ExpiresAt)}
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
