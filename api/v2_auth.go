package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/accesstoken"
	"github.com/pixgate/pixgate/storage"
)

const msgV2Unauthenticated = `/v2 expects the header "Authorization: Bearer {access_token}" with a live access token from POST /v2/oauth/token; API key pairs are accepted only there and on /api/v1.`

// The 401s of /v2. An unknown, expired or revoked token and a v1 key pair
// get the same answer; only a request with no token at all is told so
// (RFC 6750 leaves the error attribute out when no token was sent).
var (
	errV2NoToken = &apiError{Status: http.StatusUnauthorized, Code: codeUnauthenticated,
		Message: "Missing access token: " + msgV2Unauthenticated, Challenge: `Bearer realm="pixgate"`}
	errV2BadToken = &apiError{Status: http.StatusUnauthorized, Code: codeUnauthenticated,
		Message:   "Invalid or expired access token: " + msgV2Unauthenticated,
		Challenge: `Bearer realm="pixgate", error="invalid_token", error_description="request a new access token from POST /v2/oauth/token"`}
)

// codeUnavailable: a dependency of PixGate's own (not the provider) is down.
const codeUnavailable = "service_unavailable"

// v2Auth authenticates a /v2 request by its access token, reads the key the
// token was issued to (so a revoked key's tokens stop at once) and admits
// it like v1 (see admit) against the key's /v2 budget, which all its
// tokens share: minting tokens buys no budget. A request without a live
// token is counted against its client address before it is refused, so
// made-up tokens cannot buy fresh budgets either.
func (s *Server) v2Auth(scope string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		token, ok := bearerToken(c.Get(fiber.HeaderAuthorization))
		if !ok {
			return s.refuseV2(c, errV2NoToken)
		}
		if s.tokens == nil {
			return errTokensUnavailable
		}
		keyID, err := s.tokens.Resolve(c.UserContext(), token)
		switch {
		case errors.Is(err, accesstoken.ErrUnknown):
			return s.refuseV2(c, errV2BadToken)
		case err != nil:
			s.log.Warn("access-token store unavailable", "request_id", requestIDOf(c), "error", err)
			return errTokensUnavailable
		}
		key, in, err := s.deps.DB.ActiveKey(c.UserContext(), keyID)
		switch {
		case errors.Is(err, storage.ErrInvalidCredentials):
			return s.refuseV2(c, errV2BadToken)
		case err != nil:
			return err
		}
		return s.admit(c, key, in, scope, s.v2KeyBudget(key))
	}
}

// refuseV2 counts a request without a live token against its address and
// refuses it (429 first when the address is over its budget).
func (s *Server) refuseV2(c *fiber.Ctx, refusal *apiError) error {
	if err := s.spend(c, s.v2AddressBudget(c)); err != nil {
		return err
	}
	return refusal
}

// v2KeyBudget is an API key's budget on /v2, spent by every access token
// issued to the key.
func (s *Server) v2KeyBudget(key storage.APIKey) budget {
	return budget{bucket: "v2:key:" + key.PublicID, perMinute: s.cfg.V2RatePerMinute,
		holder: "this API key (all its access tokens together)"}
}

// v2AddressBudget is what /v2 requests without a live token share per
// client address.
func (s *Server) v2AddressBudget(c *fiber.Ctx) budget {
	return budget{bucket: "v2:ip:" + s.addrBucket(c), perMinute: s.cfg.V2RatePerMinute,
		holder: "this address, without a valid access token,"}
}

// errTokensUnavailable: without Redis no token can be issued or checked.
var errTokensUnavailable = &apiError{Status: http.StatusServiceUnavailable, Code: codeUnavailable,
	Message: "Access tokens are unavailable at the moment; retry shortly.", RetryAfter: 5 * time.Second}
