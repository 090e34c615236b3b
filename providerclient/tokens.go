package providerclient

import (
	"context"
	"sync"
	"time"
)

// TokenSource fetches, caches and shares an OAuth2 access token: one fetch
// serves every caller waiting at that moment, and a token is renewed before
// it expires (a fifth of its life early, at most a minute).
type TokenSource struct {
	// Fetch asks the provider for a token and its lifetime. Timeout
	// bounds it.
	Fetch   func(ctx context.Context) (token string, ttl time.Duration, err error)
	Timeout time.Duration

	mu       sync.Mutex
	token    string
	renewAt  time.Time
	inflight *tokenFetch
}

type tokenFetch struct {
	done  chan struct{}
	token string
	err   error
}

// Get returns a live token, fetching one if needed.
func (ts *TokenSource) Get(ctx context.Context) (string, error) {
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
		// The fetch outlives the caller that started it: others may wait
		// for it. Timeout bounds it.
		go ts.fetch(context.WithoutCancel(ctx), f)
	}
	ts.mu.Unlock()
	select {
	case <-f.done:
		return f.token, f.err
	case <-ctx.Done():
		return "", &Error{Op: OpToken, Kind: ErrUnavailable, Err: ctx.Err()}
	}
}

// Invalidate drops tok after the provider refused it, unless another caller
// already replaced it.
func (ts *TokenSource) Invalidate(tok string) {
	ts.mu.Lock()
	if ts.token == tok {
		ts.token = ""
	}
	ts.mu.Unlock()
}

func (ts *TokenSource) fetch(ctx context.Context, f *tokenFetch) {
	ctx, cancel := context.WithTimeout(ctx, ts.Timeout)
	defer cancel()
	started := time.Now()
	tok, ttl, err := ts.Fetch(ctx)
	ts.mu.Lock()
	if err == nil {
		ts.token, ts.renewAt = tok, started.Add(ttl-min(ttl/5, time.Minute))
	}
	ts.inflight = nil
	ts.mu.Unlock()
	f.token, f.err = tok, err
	close(f.done)
}
