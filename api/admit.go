package api

import (
	"net/http"
	"net/netip"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// admit is where both surfaces' authentication ends once a credential has
// named a live key: it records the key and its integrator for the handlers
// (apiKeyOf, integratorOf) and then, in this order, applies the key's IP
// allowlist, spends one request of the budget and checks the route's scope.
func (s *Server) admit(c *fiber.Ctx, key storage.APIKey, in storage.Integrator, scope string, b budget) error {
	c.Locals(localAPIKey, key)
	c.Locals(localIntegrator, in)
	// Account data: never cached by intermediaries.
	c.Set(fiber.HeaderCacheControl, "no-store")
	// An unreadable client address fails any allowlist.
	if !key.AllowsIP(s.clientAddr(c)) {
		return errAddressNotAllowed(s.clientAddr(c))
	}
	if err := s.spend(c, b); err != nil {
		return err
	}
	if !key.HasScope(scope) {
		return newError(http.StatusForbidden, codeForbidden, "This API key lacks the scope %q required here.", scope)
	}
	return c.Next()
}

// errAddressNotAllowed names the address as PixGate read it, "unknown"
// when a trusted proxy sent none it could read.
func errAddressNotAllowed(a netip.Addr) *apiError {
	shown := "unknown"
	if a.IsValid() {
		shown = a.String()
	}
	return newError(http.StatusForbidden, codeForbidden,
		"This API key may not be used from this address (%s); see the key's IP allowlist.", shown)
}
