package api

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestV1RateLimit(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.V1RatePerMinute = 3 })
	_, token := e.integrator("Loja Apressada", money.Percent(0), money.Fixed(0))
	_, otherToken := e.integrator("Loja Calma", money.Percent(0), money.Fixed(0))

	for i := range 3 {
		r := e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
		if r.header.Get("RateLimit-Limit") != "3" || r.header.Get("RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("request %d headers: %v", i, r.header)
		}
	}
	r := e.call(http.MethodGet, "/api/v1/balance", token, nil).expectError(t, 429, codeRateLimited)
	retry, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 20 {
		t.Fatalf("Retry-After = %q", r.header.Get("Retry-After"))
	}
	if r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") == "" || r.header.Get("RateLimit-Limit") != "3" {
		t.Fatalf("429 headers: %v", r.header)
	}
	// Limits are per key: another integrator is unaffected.
	e.call(http.MethodGet, "/api/v1/balance", otherToken, nil).expect(t, 200)
	// The counters live in Redis, under PixGate's prefix.
	keys, err := e.rdb.Keys(t.Context(), "*pixgate:rl:v1:*").Result()
	if err != nil || len(keys) != 2 {
		t.Fatalf("rate-limit keys %v, %v", keys, err)
	}
}

func TestV1RateLimitDisabled(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.V1RatePerMinute = -1 })
	_, token := e.integrator("Loja Livre", money.Percent(0), money.Fixed(0))
	for range 5 {
		if r := e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200); r.header.Get("RateLimit-Limit") != "" {
			t.Fatal("rate-limit headers while disabled")
		}
	}
}

// TestV1RateLimitFailsOpen: without Redis the limit cannot be counted, and
// requests go through rather than fail (limits protect capacity, not money).
func TestV1RateLimitFailsOpen(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.V1RatePerMinute = 1 })
	_, token := e.integrator("Loja Sem Redis", money.Percent(0), money.Fixed(0))
	if err := e.rdb.Close(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
	}
	if !contains(e.logs.String(), "rate limiter unavailable") {
		t.Fatal("the limiter's failure was not logged")
	}
}
