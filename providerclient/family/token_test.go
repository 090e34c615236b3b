package family_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

func TestTokenSharedByConcurrentCalls(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c := family.NewBase(p.config())
	const n = 50
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Balance(t.Context())
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := p.sb.Stats().TokensIssued; got != 1 || p.requests("/v2/oauth/token") != 1 {
		t.Fatalf("%d tokens issued for %d calls, want 1", got, n)
	}
	if got := p.requests("/v2/balance"); got != n {
		t.Fatalf("%d balance requests, want %d", got, n)
	}
}

// A token is renewed shortly before expires_in, so calls never meet a 401.
func TestTokenRenewedBeforeExpiry(t *testing.T) {
	p := newProvider(t, sandbox.Config{TokenTTL: time.Second})
	c := family.NewBase(p.config())
	calls := 0
	waitFor(t, "a second token", func() bool {
		if _, err := c.Balance(t.Context()); err != nil {
			t.Fatal(err)
		}
		calls++
		time.Sleep(20 * time.Millisecond)
		return p.sb.Stats().TokensIssued == 2
	})
	if got := p.requests("/v2/balance"); got != calls {
		t.Fatalf("%d balance requests for %d calls: a call met a 401", got, calls)
	}
}

// A 401 drops the token, fetches a new one and repeats the call once.
func TestTokenRefreshedOn401(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c := family.NewBase(p.config())
	if _, err := c.Balance(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.sb.ExpireTokens()
	if _, err := c.Balance(t.Context()); err != nil {
		t.Fatalf("call after the provider dropped the token: %v", err)
	}
	if got := p.sb.Stats().TokensIssued; got != 2 {
		t.Fatalf("tokens issued %d, want 2", got)
	}
	if got := p.requests("/v2/balance"); got != 3 {
		t.Fatalf("balance requests %d, want 3 (ok, 401, repeat)", got)
	}
}

func TestBadCredentialsAreRejectedWithoutTheSecret(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.ClientSecret = "sup3r-s3cret-value"
	_, err := family.NewBase(cfg).Balance(t.Context())
	var pe *providerclient.Error
	if !errors.Is(err, providerclient.ErrRejected) || !errors.As(err, &pe) || pe.StatusCode != 401 || pe.Op != "fetch token" {
		t.Fatalf("err = %v, want a rejected token fetch", err)
	}
	if strings.Contains(err.Error(), cfg.ClientSecret) {
		t.Fatalf("error shows the secret: %v", err)
	}
	if got := p.requests("/v2/oauth/token"); got != 1 {
		t.Fatalf("token requests %d, want 1: a rejection is not retried", got)
	}
}
