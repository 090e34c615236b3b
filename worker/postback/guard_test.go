package postback

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var refused = []string{
	"http://127.0.0.1/x",
	"https://169.254.169.254/latest/meta-data",
	"https://[::ffff:127.0.0.1]/",
	"https://10.0.0.1/",
	"https://100.64.0.1/",
	"https://192.168.1.10/",
	"https://[::1]/",
	"https://[fe80::1]/",
	"https://224.0.0.1/",
	"https://0.0.0.0/",
}

// fakeDNS answers from a table; other names do not exist, except
// "slow.example", whose server does not answer.
type fakeDNS map[string][]netip.Addr

func (f fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if host == "slow.example" {
		return nil, &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true, IsTemporary: true}
	}
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

var testDNS = fakeDNS{
	"loja.example":     {netip.MustParseAddr("8.8.8.8")},
	"intranet.example": {netip.MustParseAddr("127.0.0.1")},
	"mixed.example":    {netip.MustParseAddr("8.8.4.4"), netip.MustParseAddr("10.1.2.3")},
}

func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	strict := Config{AllowHTTP: true, Resolver: testDNS}
	for _, u := range append(refused, "https://localhost/", "https://api.localhost./", "https://LOCALHOST:8443/") {
		if err := CheckURL(ctx, u, strict); !errors.Is(err, ErrBlockedAddress) {
			t.Errorf("CheckURL(%s) = %v, want ErrBlockedAddress", u, err)
		}
		if err := CheckURL(ctx, u, Config{AllowHTTP: true, AllowPrivate: true}); err != nil {
			t.Errorf("CheckURL(%s) with private allowed = %v", u, err)
		}
	}
	invalid := []string{
		"http://loja.example/pix", // http not allowed
		"ftp://loja.example/pix",
		"/pix",
		"https://",
		"https:loja.example",
		"https://user:pass@loja.example/pix",
		"https://loja.example:0/",
		"https://loja.example:99999/",
		"https://loja.example/" + strings.Repeat("a", MaxURLLength),
		"https://loja example/",
	}
	for _, u := range invalid {
		if err := CheckURL(ctx, u, Config{Resolver: testDNS}); !errors.Is(err, ErrInvalidURL) {
			t.Errorf("CheckURL(%.60s) = %v, want ErrInvalidURL", u, err)
		}
	}
	for _, u := range []string{"https://loja.example/pix?token=abc", "https://LOJA.example./", "https://8.8.8.8:8443/hook",
		"https://[2606:4700::1111]/", "https://slow.example/"} {
		if err := CheckURL(ctx, u, Config{Resolver: testDNS}); err != nil {
			t.Errorf("CheckURL(%s) = %v", u, err)
		}
	}
	if err := CheckURL(ctx, "http://loja.example/pix", strict); err != nil {
		t.Errorf("http with allowHTTP: %v", err)
	}
}

// Every way of writing a non-public host that an HTTP client or a C
// resolver understands is refused when the URL is given, by the very rule
// the dialer applies, and the dialer refuses it too: what creation accepts
// is what delivery dials.
func TestCheckURLRefusesWhatDeliveryRefuses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	cfg := Config{AllowHTTP: true, Timeout: 2 * time.Second, Resolver: testDNS}
	client := NewHTTPClient(cfg)
	for _, host := range []string{
		"0", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.1", "127.0.1", // numeric IPv4 forms
		"１２７.０.０.１", "127。0。0。1", "127．0．0．1", "ｌｏｃａｌｈｏｓｔ", // full-width digits, ideographic dots
		"intranet.example", "mixed.example", "localhost", "vm.localhost", "printer.local", // names
		"metadata.google.internal", "nowhere.example", // a private-use TLD; a name that does not exist
	} {
		u := "http://" + host + port + "/hook"
		err := CheckURL(context.Background(), u, cfg)
		if !errors.Is(err, ErrBlockedAddress) && !errors.Is(err, ErrUnresolvable) {
			t.Errorf("CheckURL(%s) = %v, want it refused", u, err)
		}
		resp, err := client.Post(u, "application/json", nil)
		if err == nil {
			resp.Body.Close()
			t.Errorf("POST %s was delivered", u)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the guarded client reached the loopback receiver %d times", n)
	}
}

func TestParseLegacyIPv4(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0.0.0.0", "127.1": "127.0.0.1", "2130706433": "127.0.0.1", "0x7f000001": "127.0.0.1",
		"0177.0.0.1": "127.0.0.1", "10.0x10.1": "10.16.0.1", "1.2.3.4": "1.2.3.4", "0x0a.0.0.012": "10.0.0.10",
	} {
		got, ok := parseLegacyIPv4(in)
		if !ok || got.String() != want {
			t.Errorf("parseLegacyIPv4(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "08.1.1.1", "0x", "4294967296", "loja.example", "1..2", "-1"} {
		if got, ok := parseLegacyIPv4(in); ok {
			t.Errorf("parseLegacyIPv4(%q) = %v, want refused", in, got)
		}
	}
}

// The dialer refuses what resolves to a non-public address, whatever the
// URL says: literal addresses and names (localhost resolves to 127.0.0.1
// from /etc/hosts, with no network needed).
func TestDialerGuard(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	client := NewHTTPClient(Config{Timeout: 2 * time.Second})
	for _, u := range append(refused, srv.URL, "http://localhost"+port+"/") {
		resp, err := client.Post(u, "application/json", nil)
		if err == nil {
			resp.Body.Close()
		}
		if !errors.Is(err, ErrBlockedAddress) {
			t.Errorf("POST %s: %v, want ErrBlockedAddress", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the guarded client reached the loopback receiver %d times", n)
	}
	resp, err := NewHTTPClient(Config{AllowPrivate: true}).Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatalf("with AllowPrivate: %v", err)
	}
	resp.Body.Close()
	if n := hits.Load(); n != 1 {
		t.Fatalf("hits = %d with AllowPrivate", n)
	}
}

// One receiver's idle connections are kept for as many postbacks as a
// worker delivers at once (four were kept, and a burst to one integrator
// reconnected for the rest).
func TestClientKeepsIdleConnectionsForTheLane(t *testing.T) {
	tr, ok := NewHTTPClient(Config{}).Transport.(*http.Transport)
	if !ok {
		t.Fatalf("transport %T", NewHTTPClient(Config{}).Transport)
	}
	if tr.MaxIdleConnsPerHost < IdleConnsPerHost {
		t.Fatalf("%d idle connections per host kept, want %d", tr.MaxIdleConnsPerHost, IdleConnsPerHost)
	}
}
