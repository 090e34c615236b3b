package api

import (
	"bytes"
	"crypto/subtle"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// providerWebhook is POST /webhooks/provider/{token}: the settlement
// provider's notifications. The provider family signs nothing, so the
// token in the path is a deployment secret (a wrong one is the same 404 as
// any unknown path), and nothing here is believed: the raw event is stored
// once (deduplicated by transaction, type and status) with the outbox row
// that makes a worker confirm it with consult-transaction before anything
// moves. The answer is immediate; a malformed body is refused and kept
// nowhere.
func (s *Server) providerWebhook(c *fiber.Ctx) error {
	token := c.Params("token")
	if s.cfg.ProviderWebhookToken == "" || subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.ProviderWebhookToken)) != 1 {
		return fiber.NewError(http.StatusNotFound, "Cannot POST /webhooks/provider/…")
	}
	body := bytes.Clone(bytes.TrimSpace(c.Body())) // fasthttp reuses its buffers
	txn, err := providerclient.DecodeTransaction(body)
	if err != nil {
		return newError(http.StatusBadRequest, codeMalformedJSON, "Not a provider notification: %s.", err)
	}
	fields := map[string][]string{}
	if txn.TransactionID == "" {
		fields["transactionId"] = []string{"is required"}
	}
	if txn.TransactionType == "" {
		fields["transactionType"] = []string{"is required"}
	}
	if len(fields) > 0 {
		return &apiError{Status: http.StatusBadRequest, Code: codeBadRequest, Message: "Not a provider notification.", Fields: fields}
	}
	_, stored, err := s.deps.DB.RecordProviderEvent(c.UserContext(), storage.NewProviderEvent{
		TransactionType: txn.TransactionType, TransactionID: txn.TransactionID, Status: txn.Status, Payload: body,
	}, func(id int64) storage.OutboxMessage {
		m := tasks.ProviderEventMessage(id, 0)
		return storage.OutboxMessage(m)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"received": true, "duplicate": !stored})
}
