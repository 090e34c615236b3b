package api

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/storage/money"
)

// Failed authentications are limited per client address: past the limit
// the address gets 429 with Retry-After, even with the right secret, while
// other addresses are unaffected. Each failure is a warning line without
// the secret, and a metric.
func TestFailedAuthenticationsAreLimitedPerAddress(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := newEnv(t, func(s *setup) {
		s.cfg.AuthFailuresPerMinute = 5
		s.cfg.ProxyHeader, s.cfg.TrustedProxies = "X-Real-IP", []string{"127.0.0.1"}
		s.metrics = reg
	})
	_, token := e.integrator("Loja Cofre", money.Percent(0), money.Fixed(0))
	publicID, secret, _ := strings.Cut(token, ".")
	wrong := publicID + ".sk_guess"
	from := func(ip string) []string { return []string{"X-Real-IP", ip} }

	for i := range 5 {
		tok := wrong
		if i == 2 {
			tok = "pk_nosuchkey.sk_guess" // unknown keys count too
		}
		e.call(http.MethodGet, "/api/v1/balance", tok, nil, from("198.51.100.7")...).expectError(t, 401, codeUnauthenticated)
	}
	r := e.call(http.MethodGet, "/api/v1/balance", token, nil, from("198.51.100.7")...).expectError(t, 429, codeRateLimited)
	if retry, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || retry < 1 || retry > 60 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("198.51.100.8")...).expect(t, http.StatusOK)

	// IPv6 clients are counted by /64.
	for i := range 5 {
		e.call(http.MethodGet, "/api/v1/balance", "", nil, from("2001:db8:1:2::"+strconv.Itoa(i+1))...).expectError(t, 401, codeUnauthenticated)
	}
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("2001:db8:1:2::99")...).expectError(t, 429, codeRateLimited)
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("2001:db8:1:3::1")...).expect(t, http.StatusOK)

	logs := e.logs.String()
	if strings.Count(logs, `"msg":"authentication failed`) != 10 || !strings.Contains(logs, `"client_ip":"198.51.100.7"`) ||
		!strings.Contains(logs, `"key":"`+publicID+`"`) {
		t.Fatalf("failures not logged as expected:\n%s", logs)
	}
	if strings.Contains(logs, "sk_guess") || strings.Contains(logs, secret) {
		t.Fatal("a secret reached the logs")
	}
	if n := counterValue(t, reg, "pixgate_auth_failures_total", map[string]string{"surface": "v1", "outcome": "failed"}); n != 10 {
		t.Fatalf("failed = %v, want 10", n)
	}
	if n := counterValue(t, reg, "pixgate_auth_failures_total", map[string]string{"surface": "v1", "outcome": "blocked"}); n != 2 {
		t.Fatalf("blocked = %v, want 2", n)
	}
}

// counterValue reads the counter of one labelled series in a registry.
func counterValue(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			match := len(m.GetLabel()) == len(labels)
			for _, l := range m.GetLabel() {
				match = match && l.GetValue() == labels[l.GetName()]
			}
			if match {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no series %s%v", name, labels)
	return 0
}

// The token endpoint's credential failures spend the same per-address
// budget as v1's: a secret guessed through either door is slowed for both.
// A bad or expired access token on /v2 is not a guess and is not counted.
func TestTokenEndpointFailuresAreLimitedWithV1s(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := newEnv(t, noTokenRateLimit, func(s *setup) { s.cfg.AuthFailuresPerMinute = 4; s.metrics = reg })
	_, token := e.integrator("Loja Token", money.Percent(0), money.Fixed(0))
	publicID, secret := keyPair(token)

	for range 10 {
		e.call(http.MethodPost, "/v2/balance", "made-up-access-token", nil).expectError(t, 401, codeUnauthenticated)
	}
	access := e.accessToken(token) // not blocked by bad access tokens
	e.call(http.MethodPost, "/v2/balance", access, nil).expect(t, http.StatusOK)

	e.postToken(nil, "Authorization", basicAuth(publicID, "sk_guess"), "Content-Type", "").expectError(t, 401, oauthInvalidClient)
	e.postToken(nil, "Authorization", basicAuth("pk_nosuchkey", secret), "Content-Type", "").expectError(t, 401, oauthInvalidClient)
	e.postToken(nil, "Authorization", "Basic !!!", "Content-Type", "").expectError(t, 401, oauthInvalidClient)
	e.call(http.MethodGet, "/api/v1/balance", publicID+".sk_guess", nil).expectError(t, 401, codeUnauthenticated)

	e.postToken(nil, "Authorization", basicAuth(publicID, secret), "Content-Type", "").expectError(t, 429, codeRateLimited)
	e.call(http.MethodGet, "/api/v1/balance", token, nil).expectError(t, 429, codeRateLimited)
	if n := counterValue(t, reg, "pixgate_auth_failures_total", map[string]string{"surface": "v2_token", "outcome": "failed"}); n != 3 {
		t.Fatalf("token endpoint failures = %v, want 3", n)
	}
	if strings.Contains(e.logs.String(), "sk_guess") || strings.Contains(e.logs.String(), secret) {
		t.Fatal("a secret reached the logs")
	}
}
