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

	"github.com/pixgate/pixgate/api/sdk/internal/gen"
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
	gen      *gen.Client // builds the requests, from docs/openapi.yaml
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
	g, err := gen.NewClient(base.String(), gen.WithHTTPClient(cfg.HTTPClient))
	if err != nil {
		return nil, fmt.Errorf("pixgate: %w", err)
	}
	c := &Client{cfg: cfg, gen: g, publicID: publicID, secret: secret, now: time.Now, sleep: sleepCtx}
	c.v2 = &V2{c: c}
	return c, nil
}

// attempt is one attempt of a call: an operation of the generated client,
// its parameters and body bound, sent with the editors given.
type attempt func(ctx context.Context, edit ...gen.RequestEditorFn) (*http.Response, error)

// at binds an operation's first parameter (a path's ref, a list's query).
func at[P any](op func(context.Context, P, ...gen.RequestEditorFn) (*http.Response, error), p P) attempt {
	return func(ctx context.Context, edit ...gen.RequestEditorFn) (*http.Response, error) {
		return op(ctx, p, edit...)
	}
}

// at2 binds an operation's first two parameters.
func at2[P, Q any](op func(context.Context, P, Q, ...gen.RequestEditorFn) (*http.Response, error), p P, q Q) attempt {
	return func(ctx context.Context, edit ...gen.RequestEditorFn) (*http.Response, error) {
		return op(ctx, p, q, edit...)
	}
}

// bodyOp is an operation's variant that takes its body as it is written.
type bodyOp func(ctx context.Context, contentType string, body io.Reader, edit ...gen.RequestEditorFn) (*http.Response, error)

// withJSON binds a body written by the SDK's own types (amounts exact, as
// the generated models, which hold them in float64, would not write them).
func withJSON(body any, op bodyOp) attempt {
	return func(ctx context.Context, edit ...gen.RequestEditorFn) (*http.Response, error) {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("pixgate: encoding the request: %w", err)
		}
		return op(ctx, "application/json", bytes.NewReader(b), edit...)
	}
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

// call makes a call and decodes its answer into a new T.
func call[T any](ctx context.Context, c *Client, auth credential, send attempt) (*T, error) {
	var out T
	_, err := c.do(ctx, auth, send, &out)
	return unlessErr(&out, err)
}

// do sends a call until it gets an answer it can return: a success, a
// refusal that a retry would not change, or the last attempt. The
// answer's body is decoded into out, exactly (amounts are Amounts); the
// status is returned.
func (c *Client) do(ctx context.Context, auth credential, send attempt, out any) (int, error) {
	refreshed := false
	for attempt := 1; ; attempt++ {
		header, err := auth.header(ctx)
		if err != nil {
			return 0, err
		}
		resp, raw, what, err := c.send(ctx, send, header)
		if err != nil { // no answer: the request may or may not have arrived, which external_id makes safe
			if what == "" || ctx.Err() != nil || attempt >= c.cfg.MaxAttempts {
				return 0, err
			}
			if err := c.sleep(ctx, c.backoff(attempt)); err != nil {
				return 0, err
			}
			continue
		}
		switch {
		case resp.StatusCode < 300:
			if out != nil && len(raw) > 0 {
				if err := json.Unmarshal(raw, out); err != nil {
					return resp.StatusCode, fmt.Errorf("pixgate: reading the answer to %s: %w", what, err)
				}
			}
			return resp.StatusCode, nil
		case resp.StatusCode == http.StatusUnauthorized && auth.refresh != nil && !refreshed && auth.refresh(header):
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

// send makes one attempt and reads the whole answer. what names the
// request ("POST /api/v1/charges"); it is empty when none was sent (the
// request could not be built), which no retry changes.
func (c *Client) send(ctx context.Context, send attempt, auth string) (resp *http.Response, raw []byte, what string, err error) {
	resp, err = send(ctx, func(_ context.Context, req *http.Request) error {
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", c.cfg.UserAgent)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		what = req.Method + " " + req.URL.Path
		return nil
	})
	if err != nil {
		if what == "" {
			return nil, nil, "", err
		}
		return nil, nil, what, fmt.Errorf("pixgate: %s: %w", what, err)
	}
	defer resp.Body.Close()
	if raw, err = io.ReadAll(io.LimitReader(resp.Body, 8<<20)); err != nil {
		return nil, nil, what, fmt.Errorf("pixgate: %s: reading the answer: %w", what, err)
	}
	return resp, raw, what, nil
}
