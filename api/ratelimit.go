package api

import (
	"net/http"
	"strconv"

	"github.com/go-redis/redis_rate/v10"
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// rateLimitPrefix namespaces PixGate's v1 counters in Redis (redis_rate adds
// its own "rate:" in front).
const rateLimitPrefix = "pixgate:rl:v1:"

// Rate-limit headers (IETF draft "RateLimit header fields for HTTP").
const (
	headerRateLimitLimit     = "RateLimit-Limit"
	headerRateLimitRemaining = "RateLimit-Remaining"
	headerRateLimitReset     = "RateLimit-Reset"
)

// rateLimit spends one request of the key's budget (GCRA in Redis, so the
// limit holds across API replicas) and sets the RateLimit-* headers on every
// answer. Over the limit it is 429 with Retry-After.
//
// When Redis cannot be reached the request is let through and a warning
// logged: rate limits protect capacity, not money, and PixGate keeps taking
// payments while Redis is down.
func (s *Server) rateLimit(c *fiber.Ctx, key storage.APIKey) error {
	if s.limiter == nil {
		return nil
	}
	limit := redis_rate.PerMinute(s.cfg.V1RatePerMinute)
	res, err := s.limiter.Allow(c.UserContext(), rateLimitPrefix+key.PublicID, limit)
	if err != nil {
		s.log.Warn("rate limiter unavailable; request let through", "request_id", requestIDOf(c), "error", err)
		return nil
	}
	c.Set(headerRateLimitLimit, strconv.Itoa(limit.Burst))
	c.Set(headerRateLimitRemaining, strconv.Itoa(res.Remaining))
	c.Set(headerRateLimitReset, strconv.Itoa(ceilSeconds(res.ResetAfter)))
	if res.Allowed > 0 {
		return nil
	}
	return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited,
		Message: "Rate limit exceeded: this API key may make " + strconv.Itoa(limit.Rate) +
			" requests per minute. Retry after the number of seconds in Retry-After.",
		RetryAfter: res.RetryAfter}
}
