package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-redis/redis_rate/v10"
	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// rateLimitPrefix namespaces PixGate's counters in Redis (redis_rate adds
// its own "rate:" in front); each budget's bucket follows it.
const rateLimitPrefix = "pixgate:rl:"

// Rate-limit headers (IETF draft "RateLimit header fields for HTTP").
const (
	headerRateLimitLimit     = "RateLimit-Limit"
	headerRateLimitRemaining = "RateLimit-Remaining"
	headerRateLimitReset     = "RateLimit-Reset"
)

// budget is a rate limit and what it is counted against.
type budget struct {
	bucket    string // the counter's name under rateLimitPrefix
	perMinute int    // negative: unlimited
	holder    string // who spends it, for the 429 message ("this API key")
}

// keyBudget is a v1 API key's budget.
func (s *Server) keyBudget(key storage.APIKey) budget {
	return budget{bucket: "v1:" + key.PublicID, perMinute: s.cfg.V1RatePerMinute, holder: "this API key"}
}

// spend takes one request from the budget (GCRA in Redis, so the limit
// holds across API replicas; bursts up to the per-minute number) and sets
// the RateLimit-* headers on the answer. Over the limit it is 429 with
// Retry-After.
//
// When Redis cannot be reached the request is let through and a warning
// logged: rate limits protect capacity, not money, and PixGate keeps taking
// payments while Redis is down.
func (s *Server) spend(c *fiber.Ctx, b budget) error {
	res := s.take(c.UserContext(), b, 1, "request_id", requestIDOf(c))
	if res == nil {
		return nil
	}
	c.Set(headerRateLimitLimit, strconv.Itoa(res.Limit.Burst))
	c.Set(headerRateLimitRemaining, strconv.Itoa(res.Remaining))
	c.Set(headerRateLimitReset, strconv.Itoa(ceilSeconds(res.ResetAfter)))
	if res.Allowed > 0 {
		return nil
	}
	return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited,
		Message: "Rate limit exceeded: " + b.holder + " may make " + strconv.Itoa(res.Limit.Rate) +
			" requests per minute. Retry after the number of seconds in Retry-After.",
		RetryAfter: res.RetryAfter}
}

// take takes n from the budget, or nothing when fewer are left
// (res.Allowed 0). It is nil when nothing was counted: no limiter, an
// unlimited budget, or Redis unreachable (logged with logArgs; the
// request is let through, as spend says).
func (s *Server) take(ctx context.Context, b budget, n int, logArgs ...any) *redis_rate.Result {
	if s.limiter == nil || b.perMinute < 0 {
		return nil
	}
	res, err := s.limiter.AllowN(ctx, rateLimitPrefix+b.bucket, redis_rate.PerMinute(b.perMinute), n)
	if err != nil {
		s.log.Warn("rate limiter unavailable; request let through", append(logArgs, "error", err)...)
		return nil
	}
	return res
}
