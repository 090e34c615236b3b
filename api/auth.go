package api

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// errUnauthenticated is the one 401 of v1: an unknown key, a revoked key, a
// wrong secret and a malformed header are told apart for no one. It names
// the credential v1 expects, since v2 access tokens are not accepted here.
var errUnauthenticated = newError(http.StatusUnauthorized, codeUnauthenticated,
	`Missing or invalid credentials: /api/v1 expects the header "Authorization: Bearer {public_id}.{secret}" with an active API key.`)

// v1Auth authenticates a v1 request and admits it (see admit) against the
// key's own budget. Rate limiting comes after authentication so that nobody
// can spend another key's budget by naming its public id; failed
// authentications are limited per client address before anything else
// (authlimit.go).
func (s *Server) v1Auth(scope string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := s.authGate(c, surfaceV1); err != nil {
			return err
		}
		publicID, secret, ok := bearerKeyPair(c.Get(fiber.HeaderAuthorization))
		if !ok {
			return s.authFailed(c, surfaceV1, "", errUnauthenticated)
		}
		key, integrator, err := s.deps.DB.AuthenticateKey(c.UserContext(), publicID, secret)
		if errors.Is(err, storage.ErrInvalidCredentials) {
			return s.authFailed(c, surfaceV1, strings.Clone(publicID), errUnauthenticated)
		}
		if err != nil {
			return err
		}
		return s.admit(c, key, integrator, scope, s.keyBudget(key))
	}
}

// bearerKeyPair reads "Bearer {public_id}.{secret}". The scheme is
// case-insensitive (RFC 7235); the token's two halves must both be present.
func bearerKeyPair(header string) (publicID, secret string, ok bool) {
	token, ok := bearerToken(header)
	if !ok {
		return "", "", false
	}
	publicID, secret, found := strings.Cut(token, ".")
	if !found || secret == "" || !plausiblePublicID(publicID) {
		return "", "", false
	}
	return publicID, secret, true
}

// bearerToken reads "Bearer {token}"; the scheme is case-insensitive
// (RFC 7235).
func bearerToken(header string) (string, bool) {
	scheme, token, found := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// plausiblePublicID keeps what cannot be a public id ("pk_" and base32)
// away from the database, which would refuse some of it (NUL, bad UTF-8)
// with an error rather than "no such key".
func plausiblePublicID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// apiKeyOf returns the key that authenticated the request, if any.
func apiKeyOf(c *fiber.Ctx) (storage.APIKey, bool) {
	k, ok := c.Locals(localAPIKey).(storage.APIKey)
	return k, ok
}

// integratorIDOf is the authenticated integrator's id; only called behind
// v1Auth or v2Auth.
func integratorIDOf(c *fiber.Ctx) int64 {
	k, _ := apiKeyOf(c)
	return k.IntegratorID
}

// integratorOf is the authenticated integrator, read with its key (fees,
// name, e-mail as of this request); only called behind v1Auth or v2Auth.
func integratorOf(c *fiber.Ctx) storage.Integrator {
	in, _ := c.Locals(localIntegrator).(storage.Integrator)
	return in
}
