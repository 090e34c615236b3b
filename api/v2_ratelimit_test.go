package api

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// tokenRouteBurst runs attempt, which makes limit+1 token requests, until
// it has run inside one emission interval of the limit (GCRA frees one
// request per minute/limit; a machine slow enough to take longer than that
// over the burst would see one more request allowed). Each attempt starts
// from a fresh budget.
func tokenRouteBurst(t *testing.T, e *env, limit int, attempt func() (last reply)) reply {
	t.Helper()
	interval := time.Minute / time.Duration(limit)
	for range 3 {
		keys, _ := e.rdb.Keys(t.Context(), "*pixgate:rl:v2:oauth:*").Result()
		if len(keys) > 0 {
			e.rdb.Del(t.Context(), keys...)
		}
		start := time.Now()
		last := attempt()
		if time.Since(start) < interval {
			return last
		}
	}
	t.Fatalf("%d token requests never fit in %v", limit+1, interval)
	return reply{}
}

// expectTokenRateLimited checks the 429 of the token endpoint.
func expectTokenRateLimited(t *testing.T, r reply) {
	t.Helper()
	r.expectError(t, http.StatusTooManyRequests, codeRateLimited)
	retry, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 3 {
		t.Fatalf("Retry-After %q: 20 per minute frees one request every 3 s", r.header.Get("Retry-After"))
	}
	if r.header.Get("RateLimit-Limit") != "20" || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") == "" {
		t.Fatalf("429 headers %v", r.header)
	}
	if r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("429 headers %v", r.header)
	}
}

// TestV2TokenRateLimit: with the default limit, the 21st token request in
// a minute from one address is refused before its credentials are read,
// whether they are right or wrong.
func TestV2TokenRateLimit(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Insistente", money.Percent(0), money.Fixed(0))
	id, secret := keyPair(v1)
	last := tokenRouteBurst(t, e, 20, func() reply {
		for i := range 20 {
			// Wrong secrets count too: this is where secrets are guessed.
			s := secret
			if i%2 == 1 {
				s = "sk_wrong"
			}
			r := e.postToken(map[string]string{"grant_type": "client_credentials", "public_id": id, "secret": s})
			if r.status == http.StatusTooManyRequests {
				t.Fatalf("request %d refused: %s", i+1, r.raw)
			}
			if r.header.Get("RateLimit-Limit") != "20" {
				t.Fatalf("request %d headers: %v", i+1, r.header)
			}
		}
		return e.postToken(nil, "Authorization", basicAuth(id, secret), "Content-Type", "")
	})
	expectTokenRateLimited(t, last)
	// Other /v2 routes have budgets of their own.
	e.call(http.MethodPost, "/v2/balance", "", nil).expectError(t, 401, codeUnauthenticated)
}

// TestV2TokenRateLimitAcrossReplicas: two API servers on one Redis share
// the token endpoint's budget per address.
func TestV2TokenRateLimitAcrossReplicas(t *testing.T) {
	a := newEnv(t)
	b := a.replica()
	_, v1 := a.integrator("Loja Distribuída", money.Percent(0), money.Fixed(0))
	basic := []string{"Authorization", basicAuth(keyPair(v1)), "Content-Type", ""}
	last := tokenRouteBurst(t, a, 20, func() reply {
		for i := range 20 {
			srv := a
			if i%2 == 1 {
				srv = b
			}
			srv.postToken(nil, basic...).expect(t, http.StatusOK)
		}
		return b.postToken(nil, basic...)
	})
	expectTokenRateLimited(t, last)
	expectTokenRateLimited(t, a.postToken(nil, basic...))
}

// TestV2RateLimit: other /v2 routes are limited per API key, all its
// access tokens together (per token, a key multiplied its budget by
// minting tokens), and per address for requests without a live token.
func TestV2RateLimit(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.V2RatePerMinute = 3 })
	_, v1 := e.integrator("Loja Contada", money.Percent(0), money.Fixed(0))
	tok, second := e.accessToken(v1), e.accessToken(v1)
	_, otherV1 := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	other := e.accessToken(otherV1)

	for i := range 3 {
		spend := tok
		if i == 1 {
			spend = second
		}
		r := e.call(http.MethodPost, "/v2/balance", spend, nil).expect(t, 200)
		if r.header.Get("RateLimit-Limit") != "3" || r.header.Get("RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("request %d headers %v", i+1, r.header)
		}
	}
	r := e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 429, codeRateLimited)
	if r.header.Get("Retry-After") == "" || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") == "" {
		t.Fatalf("429 headers %v", r.header)
	}
	// Per key: another token of the same key, even a new one, shares the
	// budget; another key's has its own.
	e.call(http.MethodPost, "/v2/balance", second, nil).expectError(t, 429, codeRateLimited)
	e.call(http.MethodPost, "/v2/balance", e.accessToken(v1), nil).expectError(t, 429, codeRateLimited)
	e.call(http.MethodPost, "/v2/balance", other, nil).expect(t, 200)

	// Without a token, and with made-up tokens, the address's budget.
	e.call(http.MethodPost, "/v2/balance", "", nil).expectError(t, 401, codeUnauthenticated)
	e.call(http.MethodPost, "/v2/balance", "pgat_madeup1", nil).expectError(t, 401, codeUnauthenticated)
	e.call(http.MethodPost, "/v2/balance", "pgat_madeup2", nil).expectError(t, 401, codeUnauthenticated)
	e.call(http.MethodPost, "/v2/balance", "pgat_madeup3", nil).expectError(t, 429, codeRateLimited)
	// A live token from the same address is not held back by that.
	e.call(http.MethodPost, "/v2/balance", other, nil).expect(t, 200)

	// Counters live in Redis under PixGate's prefix, never naming a token.
	keys, _ := e.rdb.Keys(t.Context(), "*pixgate:rl:v2:*").Result()
	for _, k := range keys {
		if contains(k, tok) || contains(k, second) || contains(k, other) {
			t.Fatalf("a rate-limit key names a token: %s", k)
		}
	}
	if len(keys) != 4 { // two keys, the address on /v2, the address on the token route
		t.Fatalf("rate-limit keys %v", keys)
	}
}

// The token endpoint's budget and /v2's budget without a token were kept
// per raw address, so an IPv6 client rotating addresses inside its /64 got
// a fresh budget with every request. Both count by /64, as failed
// authentications do.
func TestV2AddressBudgetsCountIPv6ByPrefix(t *testing.T) {
	e := newEnv(t, func(s *setup) {
		s.cfg.ProxyHeader, s.cfg.TrustedProxies = "X-Real-IP", []string{"127.0.0.1"}
	})
	_, v1 := e.integrator("Loja Rotativa", money.Percent(0), money.Fixed(0))
	id, secret := keyPair(v1)
	from := func(i int) []string { return []string{"X-Real-IP", "2001:db8:7:7::" + strconv.Itoa(i+1)} }
	last := tokenRouteBurst(t, e, 20, func() reply {
		for i := range 20 {
			r := e.postToken(map[string]string{"grant_type": "client_credentials", "public_id": id, "secret": secret}, from(i)...)
			if r.status != http.StatusOK {
				t.Fatalf("request %d: %d %s", i+1, r.status, r.raw)
			}
		}
		return e.postToken(map[string]string{"grant_type": "client_credentials", "public_id": id, "secret": secret}, from(20)...)
	})
	expectTokenRateLimited(t, last)
}
