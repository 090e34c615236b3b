package family

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

const (
	opToken = "fetch token"
	// defaultTokenTTL applies when the provider gives no usable expires_in.
	defaultTokenTTL = time.Minute
	// maxTokenMargin bounds how early a token is renewed.
	maxTokenMargin = time.Minute
)

// tokenSource fetches, caches and shares the provider's access token. One
// fetch serves every caller waiting at that moment.
type tokenSource struct {
	cfg providerclient.Config

	mu       sync.Mutex
	token    string
	renewAt  time.Time
	inflight *tokenFetch
}

// tokenFetch is one token request that several callers wait for.
type tokenFetch struct {
	done  chan struct{}
	token string
	err   error
}

// get returns a live token, fetching one if needed.
func (ts *tokenSource) get(ctx context.Context) (string, error) {
	ts.mu.Lock()
	if ts.token != "" && time.Now().Before(ts.renewAt) {
		tok := ts.token
		ts.mu.Unlock()
		return tok, nil
	}
	f := ts.inflight
	if f == nil {
		f = &tokenFetch{done: make(chan struct{})}
		ts.inflight = f
		// The fetch outlives the caller that started it: others may be
		// waiting for it. providerclient.Config.Timeout bounds it.
		go ts.fetch(context.WithoutCancel(ctx), f)
	}
	ts.mu.Unlock()
	select {
	case <-f.done:
		return f.token, f.err
	case <-ctx.Done():
		return "", &providerclient.Error{Op: opToken, Kind: providerclient.ErrUnavailable, Err: ctx.Err()}
	}
}

// invalidate drops tok after the provider refused it, unless another caller
// already replaced it.
func (ts *tokenSource) invalidate(tok string) {
	ts.mu.Lock()
	if ts.token == tok {
		ts.token = ""
	}
	ts.mu.Unlock()
}

func (ts *tokenSource) fetch(ctx context.Context, f *tokenFetch) {
	ctx, cancel := context.WithTimeout(ctx, ts.cfg.Timeout)
	defer cancel()
	started := time.Now()
	tok, ttl, err := ts.request(ctx)
	ts.mu.Lock()
	if err == nil {
		ts.token, ts.renewAt = tok, started.Add(ttl-min(ttl/5, maxTokenMargin))
	}
	ts.inflight = nil
	ts.mu.Unlock()
	f.token, f.err = tok, err
	close(f.done)
}

// request asks /v2/oauth/token for a token with HTTP Basic. Every failure is
// providerclient.ErrUnavailable (nothing of consequence happened) except a 4xx, which means
// the credentials are wrong: providerclient.ErrRejected.
func (ts *tokenSource) request(ctx context.Context) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.cfg.BaseURL+"/v2/oauth/token",
		strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		return "", 0, &providerclient.Error{Op: opToken, Kind: providerclient.ErrUnavailable, Err: err}
	}
	req.SetBasicAuth(ts.cfg.ClientID, ts.cfg.ClientSecret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	res, err := roundTrip(ts.cfg.HTTPClient, req)
	if err != nil {
		err.(*providerclient.Error).Op, err.(*providerclient.Error).Kind = opToken, providerclient.ErrUnavailable
		return "", 0, err
	}
	if res.status < 200 || res.status > 299 {
		e := res.failure(opToken)
		if e.Kind != providerclient.ErrUnavailable {
			e.Kind, e.Message = providerclient.ErrRejected, "provider refused the client credentials: "+e.Message
		}
		return "", 0, e
	}
	var body struct {
		AccessToken string          `json:"access_token"`
		ExpiresIn   json.RawMessage `json:"expires_in"`
	}
	if json.Unmarshal(res.body, &body) != nil || body.AccessToken == "" {
		return "", 0, &providerclient.Error{Op: opToken, Kind: providerclient.ErrUnavailable, StatusCode: res.status, Message: "answer without access_token"}
	}
	ttl := defaultTokenTTL
	if secs, err := strconv.Atoi(strings.Trim(string(body.ExpiresIn), "\" ")); err == nil && secs > 0 {
		ttl = time.Duration(secs) * time.Second
	}
	return body.AccessToken, ttl, nil
}
