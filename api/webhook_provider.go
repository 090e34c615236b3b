package api

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient"
)

// providerWebhook is POST /webhooks/provider/{token} (and {token}/pix,
// where the BCB API Pix posts): the settlement provider's notifications.
// Neither the family nor the BCB's webhooks are signed, so the token in the
// path is a deployment secret (a wrong one is the same 404 as any unknown
// path), and nothing here is believed: the provider's connector reads the
// claims of the body and each is stored as it came, for a worker to read
// the transaction back before anything moves
// (payments.Service.ReceiveNotification). The answer is immediate.
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
	header := make(http.Header)
	c.Request().Header.VisitAll(func(k, v []byte) { header.Add(string(k), string(v)) })
	duplicate, err := s.payments.ReceiveNotification(c.UserContext(), header, bytes.Clone(c.Body())) // fasthttp reuses its buffers
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
	return c.JSON(fiber.Map{"received": true, "duplicate": duplicate})
}
