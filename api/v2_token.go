package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
)

// issueToken is POST /v2/oauth/token, the client-credentials grant of
// RFC 6749 §4.4: an API key's public id and secret, by HTTP Basic or in a
// JSON, form or multipart body (see readTokenRequest), buy an access token.
// Every answer is uncacheable; errors are RFC 6749's in PixGate's shape.
func (s *Server) issueToken(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderPragma, "no-cache")
	// Counted per address before anything is checked: this is where
	// secrets are guessed. An address that failed too often, here or on
	// v1, is refused first (authlimit.go).
	if err := s.authGate(c, surfaceV2Token); err != nil {
		return err
	}
	if err := s.spend(c, s.tokenRouteBudget(c)); err != nil {
		return err
	}
	req, err := readTokenRequest(c)
	if errors.Is(err, errInvalidClient) {
		return s.authFailed(c, surfaceV2Token, "", errInvalidClient)
	}
	if err != nil {
		return err
	}
	if s.tokens == nil {
		return errTokensUnavailable
	}
	if !plausiblePublicID(req.publicID) {
		return s.authFailed(c, surfaceV2Token, "", errInvalidClient)
	}
	key, _, err := s.deps.DB.AuthenticateKey(c.UserContext(), req.publicID, req.secret)
	switch {
	case errors.Is(err, storage.ErrInvalidCredentials):
		return s.authFailed(c, surfaceV2Token, strings.Clone(req.publicID), errInvalidClient)
	case err != nil:
		return err
	}
	// A key bound to addresses buys no token elsewhere (each use is checked
	// again, as the allowlist may change).
	if !key.AllowsIP(s.clientAddr(c)) {
		ae := errAddressNotAllowed(s.clientAddr(c))
		ae.OAuth = "unauthorized_client"
		return ae
	}
	token, err := s.tokens.Issue(c.UserContext(), key.ID)
	if err != nil {
		s.log.Warn("access-token store unavailable", "request_id", requestIDOf(c), "error", err)
		return errTokensUnavailable
	}
	c.Locals(localAPIKey, key) // for the access log
	return c.JSON(contract.Token{AccessToken: token, TokenType: "Bearer", ExpiresIn: int(s.tokens.TTL().Seconds())})
}

// tokenRouteBudget is the token endpoint's budget per client address.
func (s *Server) tokenRouteBudget(c *fiber.Ctx) budget {
	return budget{bucket: "v2:oauth:" + s.addrBucket(c), perMinute: s.cfg.V2TokenRatePerMinute, holder: "this address"}
}

// errInvalidClient is every credential failure of the token endpoint: an
// unknown public id, a wrong secret and a revoked key are told apart for no
// one, and nothing of what was sent is echoed. The Basic challenge tells
// clients how to authenticate (RFC 7235 wants a challenge on every 401).
var errInvalidClient = &apiError{Status: http.StatusUnauthorized, Code: oauthInvalidClient, OAuth: oauthInvalidClient,
	Message:   "Client authentication failed: public_id and secret do not name an active API key.",
	Challenge: `Basic realm="pixgate", charset="UTF-8"`}
