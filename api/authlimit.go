package api

import (
	"net/http"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/gofiber/fiber/v2"
)

// Failed authentications are limited per client address (GCRA in Redis, so
// the limit holds across API replicas): past the limit, the address gets
// 429 before any credential is looked at, so guessing secrets is slow and a
// flood of bad credentials costs a Redis call rather than a database query.
// IPv6 clients are counted by /64, the block one subscriber usually holds.
//
// When Redis cannot be reached nothing is counted and requests go through,
// as with the other rate limits.

// authFailPrefix namespaces the counters in Redis (redis_rate adds "rate:").
const authFailPrefix = "pixgate:rl:authfail:"

// Surfaces whose failures are counted, as metric labels: v1 key pairs and
// the v2 token endpoint, where secrets can be guessed. A bad v2 access token
// is not counted: tokens are not guessable, and a client whose token just
// expired must still reach the token endpoint.
const (
	surfaceV1      = "v1"
	surfaceV2Token = "v2_token"
)

// authFailLimit is the GCRA limit of failures per address.
func (s *Server) authFailLimit() redis_rate.Limit {
	return redis_rate.PerMinute(s.cfg.AuthFailuresPerMinute)
}

// authFailKey is the counter of the request's client address.
func (s *Server) authFailKey(c *fiber.Ctx) string { return authFailPrefix + s.addrBucket(c) }

// authGate refuses, with 429 and Retry-After, an address that used up its
// failures. It spends nothing.
func (s *Server) authGate(c *fiber.Ctx, surface string) error {
	if s.authLimiter == nil {
		return nil
	}
	limit := s.authFailLimit()
	res, err := s.authLimiter.AllowN(c.UserContext(), s.authFailKey(c), limit, 0)
	if err != nil {
		s.log.Warn("auth failure limiter unavailable; request let through", "request_id", requestIDOf(c), "error", err)
		return nil
	}
	if res.Remaining >= 1 {
		return nil
	}
	s.metrics.authFailure(surface, "blocked")
	// One more failure fits once the bucket has drained one emission
	// interval below full.
	interval := limit.Period / time.Duration(limit.Rate)
	wait := max(res.ResetAfter-time.Duration(limit.Burst-1)*interval, time.Second)
	return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited,
		Message:    "Too many failed authentications from this address. Retry after the number of seconds in Retry-After.",
		RetryAfter: wait}
}

// authFailed counts a failed authentication against the client address,
// logs it (never the secret) and returns err, the answer to give.
func (s *Server) authFailed(c *fiber.Ctx, surface, keyID string, err error) error {
	s.metrics.authFailure(surface, "failed")
	attrs := []any{"surface", surface, "client_ip", s.clientAddr(c).String(), "route", routeOf(c), "request_id", requestIDOf(c)}
	if keyID != "" {
		attrs = append(attrs, "key", keyID)
	}
	if s.authLimiter != nil {
		res, lerr := s.authLimiter.Allow(c.UserContext(), s.authFailKey(c), s.authFailLimit())
		switch {
		case lerr != nil:
			attrs = append(attrs, "limiter_error", lerr.Error())
		case res.Allowed == 0 || res.Remaining == 0:
			attrs = append(attrs, "failures_left", 0)
			s.log.Warn("authentication failed; address blocked until its failures drain", attrs...)
			return err
		default:
			attrs = append(attrs, "failures_left", res.Remaining)
		}
	}
	s.log.Warn("authentication failed", attrs...)
	return err
}
