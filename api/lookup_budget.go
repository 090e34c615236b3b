package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/go-redis/redis_rate/v10"

	"github.com/pixgate/pixgate/api/payments"
)

// lookupBudget is an account's budget of key lookups
// (payments.LookupBudget): KeyLookupsPerMinute tokens a minute, all its
// keys and both surfaces together, in the bucket lookup:<integrator>. GET
// /api/v1/pix-keys and the same-holder check of a withdrawal spend it
// through the payments layer, a miss payments.LookupMissCost tokens. It
// is on top of each key's own rate limit, and sets no RateLimit-*
// headers: those are the key's.
type lookupBudget struct{ s *Server }

func (l lookupBudget) budget(integratorID int64) budget {
	return budget{bucket: "lookup:" + strconv.FormatInt(integratorID, 10), perMinute: l.s.cfg.KeyLookupsPerMinute,
		holder: "this account's key lookups"}
}

// Take takes tokens before a lookup; over the budget it is 429 with
// Retry-After, and nothing is taken.
func (l lookupBudget) Take(ctx context.Context, integratorID int64, tokens int) error {
	b := l.budget(integratorID)
	res := l.s.take(ctx, b, tokens, "integrator", integratorID)
	if res == nil || res.Allowed > 0 {
		return nil
	}
	return &apiError{Status: http.StatusTooManyRequests, Code: codeRateLimited,
		Message: fmt.Sprintf("Rate limit exceeded: %s (GET /api/v1/pix-keys and the same-holder check of a withdrawal) "+
			"may spend %d tokens per minute, %d a lookup and %d a miss (a key the DICT does not have, a recipient who is not "+
			"the key's holder). Retry after the number of seconds in Retry-After.",
			b.holder, res.Limit.Rate, payments.LookupCost, payments.LookupMissCost),
		RetryAfter: res.RetryAfter}
}

// Owe takes tokens after a lookup whatever is left. GCRA keeps one number
// per bucket, the time at which it is full again; the burst only decides
// whether a request is let through. Taken with a burst no debt reaches,
// the tokens are always taken, past what is left: the bucket goes into
// debt, and the lookups that follow wait until it has refilled. The
// request's end does not cancel it, so that a caller who hangs up on a
// miss still owes it.
func (l lookupBudget) Owe(ctx context.Context, integratorID int64, tokens int) {
	b := l.budget(integratorID)
	if l.s.limiter == nil || b.perMinute < 0 {
		return
	}
	limit := redis_rate.PerMinute(b.perMinute)
	limit.Burst = math.MaxInt32
	if _, err := l.s.limiter.AllowN(context.WithoutCancel(ctx), rateLimitPrefix+b.bucket, limit, tokens); err != nil {
		l.s.log.Warn("rate limiter unavailable; a lookup's miss not owed", "integrator", integratorID, "error", err)
	}
}
