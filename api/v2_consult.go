package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/contractview"
)

// v2ConsultTransaction is POST /v2/consult-transaction: the integrator's
// charge, withdrawal or refund named by pix_id (clients of the family also
// spell it pix_Id), from PixGate's records, wrapped in requestBody as the
// family's notifications are. Another integrator's is 404.
func (s *Server) v2ConsultTransaction(c *fiber.Ctx) error {
	body, err := decodeObject(c)
	if err != nil {
		return err
	}
	name := "pix_id"
	if _, ok := body.raw(name); !ok {
		if _, ok := body.raw("pix_Id"); ok {
			name = "pix_Id"
		}
	}
	pixID, _ := body.text(name, contract.MaxPixIDLen, true)
	if err := body.errs.err(); err != nil {
		return err
	}
	tx, err := s.payments.Transaction(c.UserContext(), integratorIDOf(c), pixID)
	if err != nil {
		return err
	}
	return c.JSON(contract.Envelope[contract.Transaction]{RequestBody: contractview.Transaction(tx)})
}
