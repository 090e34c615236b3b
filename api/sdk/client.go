package pixgate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config is a Client's settings. BaseURL and APIKey are required; zero
// values of the others take the defaults below.
type Config struct {
	// BaseURL is PixGate's address, without /api/v1 or /v2
	// ("https://pix.example.com").
	BaseURL string
	// APIKey is the integrator's key, public id and secret joined by a dot
	// ("pk_....sk_..."): v1's bearer token, and what buys v2 access tokens.
	APIKey string
	// HTTPClient sends the requests. Default: a client with a 30 s timeout
	// per attempt.
	HTTPClient *http.Client
	// MaxAttempts bounds the attempts of one call (1: no retries).
	// Default 4.
	MaxAttempts int
	// MinBackoff is the wait before the first retry when the answer gives
	// no Retry-After; it doubles with each retry, with jitter. Default
	// 250 ms.
	MinBackoff time.Duration
	// MaxRetryWait is the longest wait before a retry. A Retry-After longer
	// than it ends the retries: the *Error carries the wait asked for.
	// Default 30 s.
	MaxRetryWait time.Duration
	// UserAgent is sent on every request. Default "pixgate-go-sdk".
	UserAgent string
}

// Defaults of Config.
const (
	DefaultMaxAttempts  = 4
	DefaultMinBackoff   = 250 * time.Millisecond
	DefaultMaxRetryWait = 30 * time.Second
	DefaultTimeout      = 30 * time.Second
)

// Client calls PixGate. It is safe for concurrent use; make one and share
// it (its v2 access token is shared too).
type Client struct {
	cfg      Config
	base     *url.URL
	publicID string
	secret   string
	v2       *V2
	now      func() time.Time
	sleep    func(ctx context.Context, d time.Duration) error
}

// New checks the configuration and builds a Client.
func New(cfg Config) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("pixgate: BaseURL %q is not an http(s) URL", cfg.BaseURL)
	}
	publicID, secret, ok := strings.Cut(cfg.APIKey, ".")
	if !ok || publicID == "" || secret == "" {
		return nil, errors.New("pixgate: APIKey is not public_id.secret")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: DefaultTimeout}
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = DefaultMinBackoff
	}
	if cfg.MaxRetryWait <= 0 {
		cfg.MaxRetryWait = DefaultMaxRetryWait
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "pixgate-go-sdk"
	}
	c := &Client{cfg: cfg, base: base, publicID: publicID, secret: secret, now: time.Now, sleep: sleepCtx}
	c.v2 = &V2{c: c}
	return c, nil
}

// call is one API call: method and path (with its query), the credential
// to send, the JSON body (nil for none). The answer's body is decoded into
// out; the status is returned. Retries happen here.
type call struct {
	method, path string
	auth         credential
	body         any
	out          any
}

// credential sets a request's Authorization header; refresh, when set, is
// told that the credential was refused (401) and returns whether a retry
// with a new one is worth it.
type credential struct {
	header  func(ctx context.Context) (string, error)
	refresh func(refused string) bool
}

func (c *Client) v1Auth() credential {
	key := "Bearer " + c.cfg.APIKey
	return credential{header: func(context.Context) (string, error) { return key, nil }}
}

// do sends a call until it gets an answer it can return: a success, a
// refusal that a retry would not change, or the last attempt.
func (c *Client) do(ctx context.Context, cl call) (int, error) {
	var body []byte
	if cl.body != nil {
		var err error
		if body, err = json.Marshal(cl.body); err != nil {
			return 0, fmt.Errorf("pixgate: encoding the request: %w", err)
		}
	}
	refreshed := false
	for attempt := 1; ; attempt++ {
		auth, err := cl.auth.header(ctx)
		if err != nil {
			return 0, err
		}
		resp, raw, err := c.send(ctx, cl.method, cl.path, auth, body)
		if err != nil { // no answer: the request may or may not have arrived, which external_id makes safe
			if ctx.Err() != nil || attempt >= c.cfg.MaxAttempts {
				return 0, err
			}
			if err := c.sleep(ctx, c.backoff(attempt)); err != nil {
				return 0, err
			}
			continue
		}
		switch {
		case resp.StatusCode < 300:
			if cl.out != nil && len(raw) > 0 {
				if err := json.Unmarshal(raw, cl.out); err != nil {
					return resp.StatusCode, fmt.Errorf("pixgate: reading the answer to %s %s: %w", cl.method, cl.path, err)
				}
			}
			return resp.StatusCode, nil
		case resp.StatusCode == http.StatusUnauthorized && cl.auth.refresh != nil && !refreshed && cl.auth.refresh(auth):
			refreshed = true // a token expired or revoked early: one more try with a new one
			attempt--
			continue
		}
		apiErr := errorFrom(resp, raw)
		if !retryable(resp.StatusCode) || attempt >= c.cfg.MaxAttempts {
			return resp.StatusCode, apiErr
		}
		wait, asked := retryAfter(resp.Header, c.now())
		if !asked {
			wait = c.backoff(attempt)
		}
		if wait > c.cfg.MaxRetryWait {
			return resp.StatusCode, apiErr
		}
		if err := c.sleep(ctx, wait); err != nil {
			return resp.StatusCode, apiErr
		}
	}
}

// send makes one attempt and reads the whole answer.
func (c *Client) send(ctx context.Context, method, path, auth string, body []byte) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, rd)
	if err != nil {
		return nil, nil, fmt.Errorf("pixgate: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("pixgate: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("pixgate: %s %s: reading the answer: %w", method, path, err)
	}
	return resp, raw, nil
}

// pathEscape escapes one path segment (a record's id or external_id).
func pathEscape(s string) string { return url.PathEscape(s) }
