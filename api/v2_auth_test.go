package api

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// TestV2AuthRefusals: /v2 takes only live access tokens, and v1 only key
// pairs; each 401 says which credential its surface expects.
func TestV2AuthRefusals(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Bearer", money.Percent(0), money.Fixed(0))
	id, secret := keyPair(v1)
	tok := e.accessToken(v1)

	tests := map[string]string{
		"no header":           "",
		"v1 key pair":         "Bearer " + v1,
		"unknown token":       "Bearer pgat_" + strings.Repeat("A", 43),
		"token of no format":  "Bearer 3f9a0c1d2e4b5a6978807a6b5c4d3e2f",
		"Basic credentials":   basicAuth(id, secret),
		"token, wrong scheme": "Token " + tok,
		"empty bearer":        "Bearer ",
	}
	for name, header := range tests {
		r := e.call(http.MethodPost, "/v2/balance", "", nil, "Authorization", header).expectError(t, 401, codeUnauthenticated)
		msg, challenge := r.str("message"), r.header.Get("WWW-Authenticate")
		if !strings.Contains(msg, "POST /v2/oauth/token") || !strings.Contains(msg, "Bearer {access_token}") || !strings.HasPrefix(challenge, `Bearer realm="pixgate"`) {
			t.Errorf("%s: %s (WWW-Authenticate %q)", name, r.raw, challenge)
		}
		if strings.Contains(r.raw, secret) || strings.Contains(r.raw, tok) {
			t.Errorf("%s: the answer echoes a credential: %s", name, r.raw)
		}
	}
	// A v2 token on v1: v1's own 401, naming v1's scheme.
	r := e.call(http.MethodGet, "/api/v1/balance", tok, nil).expectError(t, 401, codeUnauthenticated)
	if !strings.Contains(r.str("message"), "Bearer {public_id}.{secret}") {
		t.Fatalf("v1 refusing a v2 token: %s", r.raw)
	}
	// The v1 key pair still works on v1, the token on v2.
	e.call(http.MethodGet, "/api/v1/balance", v1, nil).expect(t, 200)
	e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, 200)
	// An unknown /v2 path is 404 with or without a token.
	e.call(http.MethodPost, "/v2/nope", "", nil).expectError(t, 404, codeNotFound)
	e.call(http.MethodPost, "/v2/nope", tok, nil).expectError(t, 404, codeNotFound)
}

// TestV2TokenExpiry: a token works until its lifetime ends on the server's
// clock, and not a moment after.
func TestV2TokenExpiry(t *testing.T) {
	clk := &testClock{t: time.Now()}
	e := newEnv(t, func(s *setup) { s.cfg.TokenTTL = 90 * time.Second; s.clock = clk.now })
	_, v1 := e.integrator("Loja Relógio", money.Percent(0), money.Fixed(0))
	r := e.postToken(nil, "Authorization", basicAuth(keyPair(v1)), "Content-Type", "").expect(t, 200)
	if r.get("expires_in") != "90" {
		t.Fatalf("expires_in: %s", r.raw)
	}
	tok := r.str("access_token")
	e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, 200)
	clk.advance(89 * time.Second)
	e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, 200)
	clk.advance(time.Second)
	r = e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 401, codeUnauthenticated)
	if !strings.Contains(r.str("message"), "expired") || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("expired token: %s %v", r.raw, r.header)
	}
	// A new token works again; Redis forgets each token with its lifetime.
	fresh := e.accessToken(v1)
	e.call(http.MethodPost, "/v2/balance", fresh, nil).expect(t, 200)
	keys, _ := e.rdb.Keys(t.Context(), "pixgate:v2:token:*").Result()
	for _, k := range keys {
		if ttl := e.rdb.TTL(t.Context(), k).Val(); ttl <= 0 || ttl > 90*time.Second {
			t.Fatalf("%s lives %v in Redis, want at most the token's 90s", k, ttl)
		}
	}
}

// TestV2RevocationEndsTokens: revoking a key ends every token issued to it
// at once, and only those.
func TestV2RevocationEndsTokens(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Revogada", money.Percent(0), money.Fixed(0))
	_, other, err := e.db.CreateKey(context.Background(), newKeyFor(in.ID))
	if err != nil {
		t.Fatal(err)
	}
	first, second, kept := e.accessToken(v1), e.accessToken(v1), e.accessToken(other.Token())
	for _, tok := range []string{first, second, kept} {
		e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, 200)
	}
	publicID, _ := keyPair(v1)
	if err := e.db.RevokeKey(context.Background(), publicID); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{first, second} {
		e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 401, codeUnauthenticated)
	}
	e.call(http.MethodPost, "/v2/balance", kept, nil).expect(t, 200)
	e.postToken(nil, "Authorization", basicAuth(keyPair(v1)), "Content-Type", "").expectError(t, 401, "invalid_client")
}

// TestV2ScopesAndAllowlist: a key's scopes and IP allowlist hold on /v2 as
// on v1, read afresh on every use of a token.
func TestV2ScopesAndAllowlist(t *testing.T) {
	e := newEnv(t)
	in, _ := e.integrator("Loja Restrita", money.Percent(0), money.Fixed(0))
	ctx := context.Background()
	_, narrow, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeChargesRead}})
	if err != nil {
		t.Fatal(err)
	}
	tok := e.accessToken(narrow.Token())
	r := e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 403, codeForbidden)
	if !strings.Contains(r.str("message"), storage.ScopeBalanceRead) {
		t.Fatalf("scope refusal: %s", r.raw)
	}

	// A key bound to other addresses buys no token here…
	_, far, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, IPAllowlist: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	if err != nil {
		t.Fatal(err)
	}
	r = e.postToken(nil, "Authorization", basicAuth(far.PublicID, far.Secret), "Content-Type", "").expectError(t, 403, codeForbidden)
	if r.str("error") != "unauthorized_client" {
		t.Fatalf("allowlist refusal at the token endpoint: %s", r.raw)
	}
	// …and a token stops working here when its key's allowlist changes.
	_, near, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, IPAllowlist: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	if err != nil {
		t.Fatal(err)
	}
	tok = e.accessToken(near.Token())
	e.call(http.MethodPost, "/v2/balance", tok, nil).expect(t, 200)
	if _, err := e.db.Pool().Exec(ctx, `UPDATE api_keys SET ip_allowlist = '{10.0.0.0/8}' WHERE public_id = $1`, near.PublicID); err != nil {
		t.Fatal(err)
	}
	e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 403, codeForbidden)
}

// TestV2WithoutRedis: with Redis gone no token can be issued or checked;
// the answer is 503, never a pass and never a 500.
func TestV2WithoutRedis(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Sem Redis", money.Percent(0), money.Fixed(0))
	tok := e.accessToken(v1)
	if err := e.rdb.Close(); err != nil {
		t.Fatal(err)
	}
	e.postToken(nil, "Authorization", basicAuth(keyPair(v1)), "Content-Type", "").expectError(t, 503, codeUnavailable)
	r := e.call(http.MethodPost, "/v2/balance", tok, nil).expectError(t, 503, codeUnavailable)
	if r.header.Get("Retry-After") == "" {
		t.Fatalf("503 without Retry-After: %v", r.header)
	}
	// v1 does not depend on Redis.
	e.call(http.MethodGet, "/api/v1/balance", v1, nil).expect(t, 200)
}
