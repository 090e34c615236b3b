package providerclient

import (
	"net/http"
	"testing"
)

// A connector given no HTTP client keeps as many idle connections to its
// provider as calls may be in flight, on one transport for the process:
// net/http's default keeps two per host, so a burst of 64 consults opened
// (and for mutual TLS handshook) 62 connections anew every time.
func TestDefaultClientKeepsIdleConnectionsForABurst(t *testing.T) {
	a, b := Config{}.WithDefaults(), Config{}.WithDefaults()
	tr, ok := a.HTTPClient.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("default transport %T, want *http.Transport", a.HTTPClient.Transport)
	}
	if tr.MaxIdleConnsPerHost < IdleConnsPerHost {
		t.Fatalf("MaxIdleConnsPerHost %d, want at least %d", tr.MaxIdleConnsPerHost, IdleConnsPerHost)
	}
	if b.HTTPClient.Transport != tr {
		t.Fatal("two connectors' default clients have transports of their own: connections are not shared")
	}
	if a.HTTPClient.CheckRedirect == nil {
		t.Fatal("the default client follows redirects")
	}
}
