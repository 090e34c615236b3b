// Package client is the harness's HTTP client of PixGate: the Go SDK
// (its retries, backoff, idempotency and v2 tokens), one SDK client per
// integrator, over a transport that sends each attempt to the next API
// process in turn, reports every failed attempt, and keeps the last
// answer of each call for the harness to read.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// Failure is one failed attempt: its code ("503", "conn", "timeout",
// "token 401"), whether it settles the request (a refusal that wrote
// nothing), and when it started; Tag is what Config.Tag said then.
type Failure struct {
	Tag        int
	Code       string
	Definitive bool
	At         time.Time
}

// Config is a Client's settings.
type Config struct {
	// APIs are the API processes' base URLs, taken in turn.
	APIs []string
	// Keys are the integrators' API keys ("pk_....sk_..."), by index.
	Keys []string
	// Tag labels the attempts starting now (the scenario running).
	Tag func() int
	// Failed hears of every failed attempt.
	Failed func(Failure)
}

// Client calls PixGate as each integrator.
type Client struct {
	sdks []*pixgate.Client
}

// New builds one SDK client per key over a shared transport.
func New(cfg Config) (*Client, error) {
	tr := &transport{next: &atomic.Uint64{}, base: http.DefaultTransport.(*http.Transport).Clone(), cfg: cfg}
	tr.base.MaxIdleConnsPerHost = 128
	for _, a := range cfg.APIs {
		u, err := url.Parse(a)
		if err != nil {
			return nil, err
		}
		tr.apis = append(tr.apis, u)
	}
	if len(tr.apis) == 0 {
		return nil, errors.New("client: no API")
	}
	hc := &http.Client{Timeout: 20 * time.Second, Transport: tr}
	c := &Client{}
	for _, key := range cfg.Keys {
		s, err := pixgate.New(pixgate.Config{BaseURL: cfg.APIs[0], APIKey: key, HTTPClient: hc,
			MaxRetryWait: 5 * time.Second, UserAgent: "pixgate-harness"})
		if err != nil {
			return nil, err
		}
		c.sdks = append(c.sdks, s)
	}
	return c, nil
}

// Reply is the last answer of a call.
type Reply struct {
	Status   int // 0: no answer
	Body     map[string]any
	Failures int    // attempts answered other than 2xx, or not at all
	Err      string // "timeout" or "conn" when there was no answer
}

// OK tells a 2xx.
func (r Reply) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Definitive tells whether the answer settles the request: 2xx, or a 4xx
// that means PixGate refused it and wrote nothing.
func (r Reply) Definitive() bool { return r.OK() || definitive(r.Status) }

// Str is a string field of the answer.
func (r Reply) Str(key string) string {
	s, _ := r.Body[key].(string)
	return s
}

// Code names a failed answer: the status, "conn" or "timeout".
func (r Reply) Code() string {
	if r.Status != 0 {
		return strconv.Itoa(r.Status)
	}
	if r.Err != "" {
		return r.Err
	}
	return "conn"
}

func definitive(status int) bool {
	return status >= 400 && status < 500 && status != http.StatusUnauthorized && status != http.StatusTooManyRequests
}

// Do makes one call as integrator idx with its SDK client and returns the
// last answer PixGate gave it.
func (c *Client) Do(ctx context.Context, idx int, call func(ctx context.Context, sdk *pixgate.Client) error) Reply {
	s := &slot{}
	_ = call(context.WithValue(ctx, slotKey{}, s), c.sdks[idx])
	return s.reply()
}

type slotKey struct{}

// slot collects the attempts of one call.
type slot struct {
	last atomic.Pointer[Reply]
	fail atomic.Int64
}

func (s *slot) reply() Reply {
	r := Reply{}
	if l := s.last.Load(); l != nil {
		r = *l
	}
	r.Failures = int(s.fail.Load())
	return r
}

// transport sends each attempt to the next API in turn.
type transport struct {
	next *atomic.Uint64
	apis []*url.URL
	base *http.Transport
	cfg  Config
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	api := t.apis[int(t.next.Add(1))%len(t.apis)]
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.Host = api.Scheme, api.Host, ""
	tag, at := 0, time.Now()
	if t.cfg.Tag != nil {
		tag = t.cfg.Tag()
	}
	token := strings.HasSuffix(req.URL.Path, "/oauth/token")
	s, _ := req.Context().Value(slotKey{}).(*slot)
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		r := Reply{Err: "conn"}
		if isTimeout(err) {
			r.Err = "timeout"
		}
		t.failed(s, tag, r, token, at)
		return nil, err
	}
	raw, rerr := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	if rerr != nil {
		t.failed(s, tag, Reply{Err: "conn"}, token, at)
		return resp, nil
	}
	r := Reply{Status: resp.StatusCode, Body: map[string]any{}}
	_ = json.Unmarshal(raw, &r.Body)
	if !r.OK() {
		t.failed(s, tag, r, token, at)
	} else if s != nil && !token {
		s.last.Store(&r)
	}
	return resp, nil
}

// failed reports a failed attempt and, unless it bought a token, makes it
// the call's last answer.
func (t *transport) failed(s *slot, tag int, r Reply, token bool, at time.Time) {
	code := r.Code()
	if token {
		code = "token " + code
	}
	if s != nil {
		s.fail.Add(1)
		if !token {
			s.last.Store(&r)
		}
	}
	if t.cfg.Failed != nil {
		t.cfg.Failed(Failure{Tag: tag, Code: code, Definitive: r.Definitive() && !token, At: at})
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
