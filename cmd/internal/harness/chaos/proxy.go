package chaos

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// proxy is the load balancer in front of the two API processes for the
// provider's notifications (PIXGATE_PUBLIC_BASE_URL points at it), as a
// deployment has one: requests go to the APIs in turn; one that refuses
// the connection (a process that is down) is passed over for the other,
// as nginx does with proxy_next_upstream error. A request that reached an
// API and lost its answer is not sent again: the proxy answers 502 and the
// provider retries, as it would behind a real balancer.
type proxy struct {
	backends []string // base URLs
	next     atomic.Uint64
	client   *http.Client
	srv      *http.Server
	passed   atomic.Int64 // requests passed over a backend that was down
	failed   atomic.Int64 // requests answered 502
}

func newProxy(backends []string) *proxy {
	return &proxy{backends: backends, client: &http.Client{
		Timeout: 15 * time.Second,
		// A fresh connection per request: a balancer's health comes from
		// its dials, not from a pooled connection to a dead process.
		Transport:     &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (p *proxy) serve(ln net.Listener) {
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
}

func (p *proxy) close() {
	if p.srv != nil {
		_ = p.srv.Close()
	}
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read the request", http.StatusBadRequest)
		return
	}
	start := p.next.Add(1)
	for i := range p.backends {
		backend := p.backends[(int(start)+i)%len(p.backends)]
		req, err := http.NewRequestWithContext(r.Context(), r.Method, backend+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			break
		}
		req.Header = r.Header.Clone()
		resp, err := p.client.Do(req)
		if err != nil {
			var op *net.OpError
			if errors.As(err, &op) && op.Op == "dial" {
				p.passed.Add(1)
				continue
			}
			break
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		resp.Body.Close()
		return
	}
	p.failed.Add(1)
	http.Error(w, "bad gateway", http.StatusBadGateway)
}
