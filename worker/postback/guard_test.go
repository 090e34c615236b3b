package postback

import (
	"errors"
	"net/http"
	"net/http/httptest"
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

func TestCheckURL(t *testing.T) {
	for _, u := range append(refused, "https://localhost/", "https://api.localhost./", "https://LOCALHOST:8443/") {
		if err := CheckURL(u, true, false); !errors.Is(err, ErrBlockedAddress) {
			t.Errorf("CheckURL(%s) = %v, want ErrBlockedAddress", u, err)
		}
		if err := CheckURL(u, true, true); err != nil {
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
		if err := CheckURL(u, false, false); !errors.Is(err, ErrInvalidURL) {
			t.Errorf("CheckURL(%.60s) = %v, want ErrInvalidURL", u, err)
		}
	}
	for _, u := range []string{"https://loja.example/pix?token=abc", "https://8.8.8.8:8443/hook", "https://[2606:4700::1111]/"} {
		if err := CheckURL(u, false, false); err != nil {
			t.Errorf("CheckURL(%s) = %v", u, err)
		}
	}
	if err := CheckURL("http://loja.example/pix", true, false); err != nil {
		t.Errorf("http with allowHTTP: %v", err)
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
