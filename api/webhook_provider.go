package api

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// providerWebhook is POST /webhooks/provider/{token}: the settlement
// provider's notifications. The provider family signs nothing, so the
// token in the path is a deployment secret (a wrong one is the same 404 as
// any unknown path), and nothing here is believed: the body is stored as it
// came, with the outbox row that makes a worker confirm its claim with
// consult-transaction before anything moves. The answer is immediate.
//
// Only what names no transaction is refused (400, naming the field): the
// provider retries a refused notification and would lose a genuine one
// whose other fields hold text PixGate does not like. A copy of a claim
// already confirmed and applied is acknowledged and not stored again.
func (s *Server) providerWebhook(c *fiber.Ctx) error {
	token := c.Params("token")
	if s.cfg.ProviderWebhookToken == "" || subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.ProviderWebhookToken)) != 1 {
		return fiber.ErrNotFound
	}
	body := bytes.Clone(c.Body()) // fasthttp reuses its buffers
	n, err := providerclient.ParseNotification(body)
	var ne *providerclient.NotificationError
	switch {
	case errors.As(err, &ne) && ne.Field == "":
		return newError(http.StatusBadRequest, codeMalformedJSON, "Not a provider notification: %s.", ne.Error())
	case errors.As(err, &ne):
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest, Message: "Not a provider notification.",
			Fields: map[string][]string{ne.Field: {ne.Problem}}}
	case err != nil:
		return err
	}
	_, stored, err := s.deps.DB.RecordProviderEvent(c.UserContext(), storage.NewProviderEvent{
		TransactionType: n.TransactionType, TransactionID: n.TransactionID, Status: n.Status, Payload: body,
	}, func(id int64) storage.OutboxMessage { return storage.OutboxMessage(tasks.ProviderEventMessage(id, 0)) })
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"received": true, "duplicate": !stored})
}
