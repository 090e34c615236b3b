package api

import (
	"context"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

func TestV1Authentication(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Chaves", money.Percent(0), money.Fixed(0))
	publicID, secret, _ := strings.Cut(token, ".")
	ctx := context.Background()
	_, revoked, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.RevokeKey(ctx, revoked.PublicID); err != nil {
		t.Fatal(err)
	}

	e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200)
	e.call(http.MethodGet, "/api/v1/balance", "", nil, "Authorization", "bearer "+token).expect(t, 200)

	cases := map[string]string{
		"no header":             "",
		"wrong secret":          "Bearer " + publicID + ".sk_wrong",
		"unknown key":           "Bearer pk_unknown." + secret,
		"revoked key":           "Bearer " + revoked.Token(),
		"public id only":        "Bearer " + publicID,
		"empty secret":          "Bearer " + publicID + ".",
		"basic scheme":          "Basic " + token,
		"v2 style access token": "Bearer 3f9a0c1d2e4b5a6978807a6b5c4d3e2f",
	}
	var bodies []string
	for name, header := range cases {
		r := e.call(http.MethodGet, "/api/v1/balance", "", nil, "Authorization", header)
		r.expectError(t, 401, codeUnauthenticated)
		if r.header.Get("WWW-Authenticate") == "" || !strings.Contains(r.str("message"), "Bearer {public_id}.{secret}") {
			t.Errorf("%s: %v %s", name, r.header, r.raw)
		}
		bodies = append(bodies, r.str("message"))
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Fatalf("401 answers differ; they must not tell failures apart: %q vs %q", b, bodies[0])
		}
	}
	// Unauthenticated requests change nothing, even with a valid body.
	e.call(http.MethodPost, "/api/v1/charges", "", validCharge(nil)).expectError(t, 401, codeUnauthenticated)
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges", n)
	}
	if strings.Contains(e.logs.String(), secret) || strings.Contains(e.logs.String(), "Bearer") {
		t.Fatal("a secret or the Authorization header reached the logs")
	}
}

func TestV1Scopes(t *testing.T) {
	e := newEnv(t)
	in, _ := e.integrator("Loja Escopos", money.Percent(0), money.Fixed(0))
	_, readOnly, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID,
		Scopes: []string{storage.ScopeChargesRead, storage.ScopeWithdrawalsRead}})
	if err != nil {
		t.Fatal(err)
	}
	token := readOnly.Token()
	e.call(http.MethodGet, "/api/v1/charges", token, nil).expect(t, 200)
	e.call(http.MethodGet, "/api/v1/withdrawals", token, nil).expect(t, 200)
	for _, tt := range []struct{ method, path, scope string }{
		{http.MethodGet, "/api/v1/balance", "balance:read"},
		{http.MethodPost, "/api/v1/charges", "charges:write"},
		{http.MethodPost, "/api/v1/withdrawals", "withdrawals:write"},
		{http.MethodGet, "/api/v1/infractions", "infractions:read"},
		{http.MethodPost, "/api/v1/infractions/0195b2c4-1d2e-7f30-8a41-5b6c7d8e9f00/defense", "infractions:write"},
		{http.MethodGet, "/api/v1/pix-keys/52998224725", "pix_keys:read"},
	} {
		var body any
		if tt.method == http.MethodPost {
			body = validCharge(nil)
		}
		r := e.call(tt.method, tt.path, token, body).expectError(t, 403, codeForbidden)
		if !strings.Contains(r.str("message"), tt.scope) {
			t.Errorf("%s %s: message does not name %s: %s", tt.method, tt.path, tt.scope, r.raw)
		}
	}
	if n := e.count(`SELECT count(*) FROM charges`) + e.count(`SELECT count(*) FROM withdrawals`); n != 0 {
		t.Fatalf("%d rows written without the scope", n)
	}
}

func TestV1IPAllowlist(t *testing.T) {
	e := newEnv(t)
	in, _ := e.integrator("Loja Rede", money.Percent(0), money.Fixed(0))
	key := func(prefixes ...string) string {
		var allow []netip.Prefix
		for _, p := range prefixes {
			allow = append(allow, netip.MustParsePrefix(p))
		}
		_, creds, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, IPAllowlist: allow})
		if err != nil {
			t.Fatal(err)
		}
		return creds.Token()
	}
	e.call(http.MethodGet, "/api/v1/balance", key("10.0.0.0/8", "2001:db8::/32"), nil).expectError(t, 403, codeForbidden)
	e.call(http.MethodGet, "/api/v1/balance", key("10.0.0.0/8", "127.0.0.1/32"), nil).expect(t, 200)
	// A forwarded-for header from an untrusted peer is ignored.
	e.call(http.MethodGet, "/api/v1/balance", key("10.0.0.0/8"), nil, "X-Forwarded-For", "10.1.2.3").expectError(t, 403, codeForbidden)
}
