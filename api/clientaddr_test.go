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

func TestParseClientAddr(t *testing.T) {
	tests := []struct {
		in, want string // want "": not usable
	}{
		{"198.51.100.7", "198.51.100.7"},
		{" 198.51.100.7 ", "198.51.100.7"},
		{"198.51.100.7:4711", "198.51.100.7"},
		{"::ffff:198.51.100.7", "198.51.100.7"},
		{"[::ffff:198.51.100.7]:443", "198.51.100.7"},
		{"[::ffff:198.51.100.7]", "198.51.100.7"},
		{"2001:db8::7", "2001:db8::7"},
		{"[2001:db8::7]:8080", "2001:db8::7"},
		{"fe80::1%eth0", "fe80::1"},
		{"[fe80::1%25eth0]:80", "fe80::1"},
		{"[fe80::1%eth0]:80", "fe80::1"},
		{"0.0.0.0", ""},
		{"::", ""},
		{"", ""},
		{"unknown", ""},
		{"198.51.100", ""},
		{"198.51.100.7.8", ""},
		{"for=198.51.100.7", ""},
		{"[198.51.100.7]", "198.51.100.7"},
	}
	for _, tt := range tests {
		a, ok := parseClientAddr(tt.in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != tt.want {
			t.Errorf("parseClientAddr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The header is read from the right: the first address that is not a
// trusted proxy's is the client's, whatever a client wrote before it.
func TestProxyHeaderIsReadFromTheRight(t *testing.T) {
	p, err := newProxies("X-Forwarded-For", []string{"10.0.0.0/8", "::ffff:192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		header, want string // want "": not usable
	}{
		{"198.51.100.7", "198.51.100.7"},
		{"10.9.9.9, 198.51.100.7", "198.51.100.7"},  // a client wrote 10.9.9.9
		{"198.51.100.7, 10.1.1.1", "198.51.100.7"},  // a second trusted proxy
		{"198.51.100.7, 192.0.2.1", "198.51.100.7"}, // trusted, listed mapped
		{"10.1.1.1, 10.2.2.2", "10.1.1.1"},          // only proxies: the leftmost
		{"junk, 198.51.100.7", "198.51.100.7"},      // never reached
		{"198.51.100.7, junk", ""},                  // reached, unreadable
		{"198.51.100.7,, 10.1.1.1", ""},             // an empty entry
		{"", ""},
		{"   ", ""},
	}
	for _, tt := range tests {
		a, ok := p.fromHeader(tt.header)
		got := ""
		if ok {
			got = a.String()
		}
		if got != tt.want {
			t.Errorf("fromHeader(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
	if _, err := newProxies("X-Real-IP", nil); err == nil {
		t.Error("a proxy header without trusted proxies was taken")
	}
	if _, err := ParseTrustedProxies([]string{"10.0.0.0/8", "proxy.internal"}); err == nil || !strings.Contains(err.Error(), "proxy.internal") {
		t.Errorf("an unreadable trusted proxy: %v", err)
	}
}

// keyAllowing creates a key of the integrator usable only from prefix.
func (e *env) keyAllowing(integratorID int64, prefix string) string {
	e.t.Helper()
	_, creds, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: integratorID,
		IPAllowlist: []netip.Prefix{netip.MustParsePrefix(prefix)}})
	if err != nil {
		e.t.Fatal(err)
	}
	return creds.Token()
}

// A proxy header set without trusted proxies was believed from every
// client: a key allowlisted to 10.9.9.9/32 answered anyone who sent
// X-Forwarded-For: 10.9.9.9. Such a header is ignored (and the commands
// refuse to start with it).
func TestProxyHeaderWithoutTrustedProxiesIsIgnored(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.ProxyHeader = "X-Forwarded-For" })
	in, _ := e.integrator("Loja Cercada", money.Percent(0), money.Fixed(0))
	token := e.keyAllowing(in.ID, "10.9.9.9/32")
	for _, h := range []string{"X-Forwarded-For", "X-Real-IP"} {
		e.call(http.MethodGet, "/api/v1/balance", token, nil, h, "10.9.9.9").expectError(t, http.StatusForbidden, codeForbidden)
	}
	if !strings.Contains(e.logs.String(), "proxy header without trusted proxies") {
		t.Fatalf("the ignored header was not logged:\n%s", e.logs.String())
	}
}

// Behind a trusted dual-stack proxy, one client is one client however the
// proxy spells its address, and a proxy that sends nothing usable is
// counted in a bucket of its own: an IPv4-mapped, zoned or unreadable
// address used to be charged to the proxy itself, so 30 bad requests
// locked every client behind it out, and one client had a budget per
// spelling.
func TestClientBehindATrustedProxy(t *testing.T) {
	e := newEnv(t, func(s *setup) {
		s.cfg.AuthFailuresPerMinute = 3
		s.cfg.ProxyHeader, s.cfg.TrustedProxies = "X-Real-IP", []string{"127.0.0.1"}
	})
	in, token := e.integrator("Loja Dupla", money.Percent(0), money.Fixed(0))
	publicID, _, _ := strings.Cut(token, ".")
	wrong := publicID + ".sk_guess"
	from := func(a string) []string { return []string{"X-Real-IP", a} }

	// The allowlist sees the IPv4 address a mapped one holds.
	allowed := e.keyAllowing(in.ID, "198.51.100.7/32")
	e.call(http.MethodGet, "/api/v1/balance", allowed, nil, from("::ffff:198.51.100.7")...).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/api/v1/balance", allowed, nil, from("[::ffff:198.51.100.7]:443")...).expect(t, http.StatusOK)
	r := e.call(http.MethodGet, "/api/v1/balance", allowed, nil, from("garbage")...).expectError(t, http.StatusForbidden, codeForbidden)
	if !strings.Contains(r.raw, "(unknown)") || strings.Contains(r.raw, "127.0.0.1") {
		t.Fatalf("refusal of an unreadable address: %s", r.raw)
	}

	// Three spellings of one client share its budget of three failures.
	for _, a := range []string{"198.51.100.9", "::ffff:198.51.100.9", "[::ffff:198.51.100.9]:443"} {
		e.call(http.MethodGet, "/api/v1/balance", wrong, nil, from(a)...).expectError(t, http.StatusUnauthorized, codeUnauthenticated)
	}
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("198.51.100.9:80")...).expectError(t, http.StatusTooManyRequests, codeRateLimited)

	// Requests without a usable address use up a bucket of their own...
	for _, a := range []string{"garbage", "", "0.0.0.0"} {
		e.call(http.MethodGet, "/api/v1/balance", wrong, nil, from(a)...).expectError(t, http.StatusUnauthorized, codeUnauthenticated)
	}
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("junk")...).expectError(t, http.StatusTooManyRequests, codeRateLimited)
	// ...not the proxy's, nor another client's behind it.
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("::ffff:198.51.100.10")...).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("127.0.0.1")...).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/api/v1/balance", token, nil, from("fe80::1%eth0")...).expect(t, http.StatusOK)
}
