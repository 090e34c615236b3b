package api

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
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
//
// Every other provider has a path of its own, /webhooks/provider/{name}/{token}
// (and …/pix), whose token is its own (ProviderWebhookToken): a provider
// knows no other's path, and its notifications are read by its own
// connector.
func (s *Server) providerWebhook(c *fiber.Ctx) error {
	name := providerclient.DefaultName
	if n := c.Params("name"); n != "" {
		name = n
	}
	if s.cfg.ProviderWebhookToken == "" ||
		subtle.ConstantTimeCompare([]byte(c.Params("token")), []byte(ProviderWebhookToken(s.cfg.ProviderWebhookToken, name))) != 1 {
		return fiber.ErrNotFound
	}
	header := make(http.Header)
	c.Request().Header.VisitAll(func(k, v []byte) { header.Add(string(k), string(v)) })
	duplicate, err := s.payments.ReceiveNotification(c.UserContext(), name, header, bytes.Clone(c.Body())) // fasthttp reuses its buffers
	var ne *providerclient.NotificationError
	switch {
	case errors.Is(err, payments.ErrUnknownProvider):
		return fiber.ErrNotFound
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

// ProviderWebhookToken is the secret path segment of provider name's
// notifications, derived from the deployment's webhook secret: the secret
// itself for the default provider (its path is unchanged), an HMAC of the
// name under it for any other, so that each provider has a token of its
// own and none is stored anywhere.
func ProviderWebhookToken(secret, name string) string {
	if name == providerclient.DefaultName {
		return secret
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("provider webhook " + name))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}
