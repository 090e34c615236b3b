package pixgate

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryable says whether an answer may change if the same request is sent
// again: over a rate limit (429), PixGate or its provider unavailable for a
// moment (503), the provider too slow to answer (504; PixGate's own advice
// is to retry with the same external_id). Everything else is final.
func retryable(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryAfter reads Retry-After: delay-seconds or an HTTP date (RFC 9110
// §10.2.3). ok is false when there is none, or none that parses.
func retryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, 24*3600)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// backoff is the wait before retry number attempt (1, 2, ...) when the
// answer gave no Retry-After: MinBackoff doubled each time, at most
// MaxRetryWait, of which a random half is taken off (jitter, so clients
// that failed together do not come back together).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.MinBackoff
	for i := 1; i < attempt && d < c.cfg.MaxRetryWait; i++ {
		d *= 2
	}
	d = min(d, c.cfg.MaxRetryWait)
	return d/2 + rand.N(d/2+1)
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
