package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// apiClient is the integrators' HTTP client of the two API processes. It
// sends each attempt to the next API in turn and, like a careful
// integrator, retries what may have failed with the same request (so the
// same external_id): connection errors, timeouts, 5xx, 429 after
// Retry-After, and a refused v2 token after fetching a new one. Every
// failed attempt is counted against the scenario it started in.
type apiClient struct {
	urls   [2]string
	http   *http.Client
	next   atomic.Uint64
	tokens []*v2Token // by integrator index
	stats  *stats
	// scenario is the scenario running now (-1: none, not counted).
	scenario func() int
}

type v2Token struct {
	mu    sync.Mutex
	value string
}

// reply is the last answer of a call.
type reply struct {
	status   int // 0: no answer
	body     map[string]any
	failures int // attempts of the call answered other than 2xx, or not at all
}

// definitive tells whether the answer settles the request: 2xx, or a 4xx
// that means PixGate refused it and wrote nothing.
func (r reply) definitive() bool {
	return r.status >= 200 && r.status < 300 ||
		r.status >= 400 && r.status < 500 && r.status != http.StatusUnauthorized && r.status != http.StatusTooManyRequests
}

func (r reply) ok() bool { return r.status >= 200 && r.status < 300 }

func (r reply) str(key string) string {
	s, _ := r.body[key].(string)
	return s
}

const callAttempts = 4

func newAPIClient(urls [2]string, nIntegrators int, st *stats, scenario func() int) *apiClient {
	c := &apiClient{urls: urls, stats: st, scenario: scenario,
		http: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}}
	for range nIntegrators {
		c.tokens = append(c.tokens, &v2Token{})
	}
	return c
}

// call sends method path (v1 or v2 by its prefix) for integrator in, with
// retries; body nil sends none.
func (c *apiClient) call(ctx context.Context, in *integrator, idx int, method, path string, body any) reply {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	v2 := len(path) > 4 && path[:4] == "/v2/"
	start := int(c.next.Add(1))
	var (
		last   reply
		failed int
	)
	for attempt := range callAttempts {
		base := c.urls[(start+attempt)%2]
		sc, at := c.scenario(), time.Now()
		auth := "Bearer " + in.v1Token
		if v2 {
			tok, err := c.token(ctx, base, in, idx)
			if err != "" {
				failed++
				c.stats.fail(sc, "token "+err, false, at)
				sleep(ctx, backoff(attempt, 0))
				continue
			}
			auth = "Bearer " + tok
		}
		last = c.send(ctx, method, base+path, auth, payload)
		if last.ok() {
			last.failures = failed
			return last
		}
		failed++
		c.stats.fail(sc, codeOf(last), last.definitive(), at)
		if last.definitive() {
			last.failures = failed
			return last
		}
		if last.status == http.StatusUnauthorized && v2 {
			c.dropToken(idx, auth[len("Bearer "):])
		}
		if attempt < callAttempts-1 {
			sleep(ctx, backoff(attempt, retryAfter(last)))
		}
	}
	last.failures = failed
	return last
}

func (c *apiClient) send(ctx context.Context, method, url, auth string, payload []byte) reply {
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return reply{}
	}
	req.Header.Set("Authorization", auth)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var body map[string]any
		if isTimeout(err) {
			body = map[string]any{"_error": "timeout"}
		}
		return reply{body: body}
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode, body: map[string]any{}}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	_ = json.Unmarshal(raw, &r.body)
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		r.body["_retry_after"] = ra
	}
	return r
}

// token is the integrator's v2 access token, fetched from base when it has
// none; the error is a code for the statistics.
func (c *apiClient) token(ctx context.Context, base string, in *integrator, idx int) (string, string) {
	t := c.tokens[idx]
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.value != "" {
		return t.value, ""
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v2/oauth/token", nil)
	req.SetBasicAuth(in.publicID, in.secret)
	resp, err := c.http.Do(req)
	if err != nil {
		return "", "conn"
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil || out.AccessToken == "" {
		return "", strconv.Itoa(resp.StatusCode)
	}
	t.value = out.AccessToken
	return t.value, ""
}

func (c *apiClient) dropToken(idx int, used string) {
	t := c.tokens[idx]
	t.mu.Lock()
	if t.value == used {
		t.value = ""
	}
	t.mu.Unlock()
}

// codeOf names a failed attempt for the table: the status, "conn" or
// "timeout".
func codeOf(r reply) string {
	switch {
	case r.status != 0:
		return strconv.Itoa(r.status)
	case r.body["_error"] == "timeout":
		return "timeout"
	}
	return "conn"
}

func retryAfter(r reply) time.Duration {
	s, _ := r.body["_retry_after"].(string)
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return min(time.Duration(n)*time.Second, 3*time.Second)
}

// backoff is the wait before attempt+1: 250 ms doubling, or what the
// server asked for.
func backoff(attempt int, asked time.Duration) time.Duration {
	return max(asked, 250*time.Millisecond<<attempt)
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
