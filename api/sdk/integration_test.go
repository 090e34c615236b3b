package pixgate_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// The SDK against a running PixGate: `make test` runs these through
// cmd/pixgate's TestGoSDK, which starts pixgate dev and sets
//
//	PIXGATE_SDK_TEST_URL             the API
//	PIXGATE_SDK_TEST_SANDBOX_URL     its sandbox provider
//	PIXGATE_SDK_TEST_KEY             an integrator's key: R$ 197,143.76
//	                                 available, cash-in 1.5 %, cash-out R$ 0.50
//	PIXGATE_SDK_TEST_WEBHOOK_SECRET  that integrator's webhook secret
//	PIXGATE_SDK_TEST_V1_RATE         the v1 rate limit per minute
//
// Without them they are skipped.
type live struct {
	t       *testing.T
	c       *pixgate.Client
	sandbox string
	secret  string
	counter *counter
}

func newLive(t *testing.T) *live {
	url := os.Getenv("PIXGATE_SDK_TEST_URL")
	if url == "" {
		t.Skip("no PixGate to test against: set PIXGATE_SDK_TEST_URL (make test does, through cmd/pixgate's TestGoSDK)")
	}
	cnt := &counter{next: http.DefaultTransport, paths: map[string]int{}, statuses: map[int]int{}}
	c, err := pixgate.New(pixgate.Config{BaseURL: url, APIKey: os.Getenv("PIXGATE_SDK_TEST_KEY"),
		HTTPClient: &http.Client{Transport: cnt, Timeout: 20 * time.Second}, MaxAttempts: 6})
	if err != nil {
		t.Fatal(err)
	}
	return &live{t: t, c: c, sandbox: os.Getenv("PIXGATE_SDK_TEST_SANDBOX_URL"),
		secret: os.Getenv("PIXGATE_SDK_TEST_WEBHOOK_SECRET"), counter: cnt}
}

// counter counts requests by path and answers by status, and can watch
// for a status.
type counter struct {
	next     http.RoundTripper
	mu       sync.Mutex
	paths    map[string]int
	statuses map[int]int
	onStatus func(int)
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	c.mu.Lock()
	c.paths[r.URL.Path]++
	var hook func(int)
	if err == nil {
		c.statuses[resp.StatusCode]++
		hook = c.onStatus
	}
	c.mu.Unlock()
	if hook != nil {
		hook(resp.StatusCode)
	}
	return resp, err
}

// watch calls fn with the status of every answer from now on (nil: none).
func (c *counter) watch(fn func(int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onStatus = fn
}

func (c *counter) path(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paths[p]
}

func (c *counter) status(s int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statuses[s]
}

// control posts to the sandbox's control API (paying a charge, faults).
func (l *live) control(path, body string) {
	l.t.Helper()
	resp, err := http.Post(l.sandbox+path, "application/json", strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		l.t.Fatalf("sandbox %s: %s", path, resp.Status)
	}
}

func (l *live) eventually(what string, cond func() bool) {
	l.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			l.t.Fatalf("not within 20s: %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// postbacks is an integrator's postback endpoint made of PostbackHandler:
// only what verifies with the webhook secret gets in.
type postbacks struct {
	*httptest.Server
	mu  sync.Mutex
	got []*pixgate.Postback
	ids map[string]bool
}

func (l *live) postbacks() *postbacks {
	p := &postbacks{ids: map[string]bool{}}
	p.Server = httptest.NewServer(pixgate.PostbackHandler(l.secret, func(_ context.Context, id string, pb *pixgate.Postback) error {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.ids[id] { // delivered at least once: deduplicate
			p.ids[id] = true
			p.got = append(p.got, pb)
		}
		return nil
	}))
	l.t.Cleanup(p.Close)
	return p
}

// wait returns the first postback of kind and status about the charge
// pixID (its own for RECEIVEPIX, the refunded one's for REFUND).
func (p *postbacks) wait(l *live, kind, status, pixID string) *pixgate.Postback {
	l.t.Helper()
	var found *pixgate.Postback
	l.eventually(kind+" "+status+" postback", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, pb := range p.got {
			if pb.TransactionType == kind && pb.Status == status && (pb.TransactionID == pixID || pb.PixID == pixID) {
				found = pb
				return true
			}
		}
		return false
	})
	return found
}

func same(t *testing.T, what string, got pixgate.Amount, want string) {
	t.Helper()
	if got != pixgate.MustAmount(want) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func validationError(t *testing.T, err error, field string) {
	t.Helper()
	var pe *pixgate.Error
	if !errors.As(err, &pe) || pe.StatusCode != http.StatusUnprocessableEntity || pe.Code != "validation_failed" || len(pe.Field(field)) == 0 {
		t.Fatalf("want a 422 naming %s, got %v", field, err)
	}
	if !strings.HasPrefix(pe.Message, field+" ") {
		t.Errorf("the message does not name %s first: %q", field, pe.Message)
	}
}
