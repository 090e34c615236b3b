package chaos

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The balancer passes over a backend that refuses connections, and does
// not resend a request a backend took and dropped.
func TestProxyPassesOverADownBackendOnly(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte(r.URL.Path + " " + string(b)))
	}))
	defer up.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	dropped := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer dropped.Close()

	p := newProxy([]string{down, up.URL})
	front := httptest.NewServer(p)
	defer front.Close()
	for range 4 {
		resp, err := http.Post(front.URL+"/webhooks/provider/tok", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted || string(b) != "/webhooks/provider/tok {}" {
			t.Fatalf("answered %d %q", resp.StatusCode, b)
		}
	}
	if p.passed.Load() != 2 || p.failed.Load() != 0 {
		t.Fatalf("passed over %d, failed %d; want 2 and 0", p.passed.Load(), p.failed.Load())
	}

	p = newProxy([]string{dropped.URL, dropped.URL})
	front2 := httptest.NewServer(p)
	defer front2.Close()
	resp, err := http.Post(front2.URL+"/x", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || p.passed.Load() != 0 || p.failed.Load() != 1 {
		t.Fatalf("a dropped request: %d, passed over %d", resp.StatusCode, p.passed.Load())
	}
}
