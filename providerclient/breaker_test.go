package providerclient_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// transitions records breaker state changes.
type transitions struct {
	mu  sync.Mutex
	got []string
}

func (tr *transitions) record(from, to string) {
	tr.mu.Lock()
	tr.got = append(tr.got, from+"→"+to)
	tr.mu.Unlock()
}

func (tr *transitions) list() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.got)
}

func TestBreakerOpensFailsFastAndCloses(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	var tr transitions
	cfg := p.config()
	cfg.BreakerFailures, cfg.BreakerOpenTimeout, cfg.OnBreakerStateChange = 3, 150*time.Millisecond, tr.record
	c := providerclient.New(cfg)
	ctx := t.Context()
	if _, err := c.Balance(ctx); err != nil { // token cached, breaker closed
		t.Fatal(err)
	}

	p.sb.SetFaults(sandbox.Faults{Outage: true})
	before := p.requests("/v2/balance")
	for {
		_, err := c.Balance(ctx)
		if errors.Is(err, providerclient.ErrBreakerOpen) {
			break
		}
		if !errors.Is(err, providerclient.ErrUnavailable) {
			t.Fatalf("during the outage: %v", err)
		}
		if p.requests("/v2/balance")-before > 3 {
			t.Fatal("breaker still closed after 3 consecutive failures")
		}
	}
	if got := p.requests("/v2/balance") - before; got != 3 {
		t.Fatalf("%d requests reached the provider before the breaker opened, want 3", got)
	}

	// Open: fail fast, nothing sent.
	sent := p.requests("/v2/balance")
	for range 20 {
		start := time.Now()
		_, err := c.Balance(ctx)
		if !errors.Is(err, providerclient.ErrBreakerOpen) || !errors.Is(err, providerclient.ErrUnavailable) {
			t.Fatalf("while open: %v", err)
		}
		if time.Since(start) > 20*time.Millisecond {
			t.Fatal("breaker-open call was not fast")
		}
		if _, err := c.CreatePayment(ctx, payment("while-open")); !errors.Is(err, providerclient.ErrBreakerOpen) {
			t.Fatalf("payment while open: %v", err)
		}
	}
	if got := p.requests("/v2/balance") + p.requests("/v2/pix/payment"); got != sent {
		t.Fatalf("%d requests sent while the breaker was open", got-sent)
	}

	// Outage over: after the open interval one probe goes through and closes it.
	p.sb.ResetFaults()
	waitFor(t, "the breaker to close", func() bool {
		_, err := c.Balance(ctx)
		return err == nil
	})
	want := []string{"closed→open", "open→half-open", "half-open→closed"}
	if got := tr.list(); !slices.Equal(got, want) {
		t.Fatalf("transitions %v, want %v", got, want)
	}
}

func TestBreakerReopensWhenTheProbeFails(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	var tr transitions
	cfg := p.config()
	cfg.BreakerFailures, cfg.BreakerOpenTimeout, cfg.OnBreakerStateChange = 1, 50*time.Millisecond, tr.record
	cfg.RetryMaxElapsed = -1
	c := providerclient.New(cfg)
	_, _ = c.Balance(t.Context())
	p.sb.SetFaults(sandbox.Faults{ErrorRate: 1})
	if _, err := c.Balance(t.Context()); errors.Is(err, providerclient.ErrBreakerOpen) || !errors.Is(err, providerclient.ErrUnavailable) {
		t.Fatalf("first failure: %v", err)
	}
	sent := p.requests("/v2/balance")
	waitFor(t, "a failed probe", func() bool {
		_, _ = c.Balance(t.Context()) // fails fast while open, probes once half-open
		return len(tr.list()) >= 3
	})
	if got := p.requests("/v2/balance") - sent; got != 1 {
		t.Fatalf("%d requests while open and half-open, want the single probe", got)
	}
	want := []string{"closed→open", "open→half-open", "half-open→open"}
	if got := tr.list()[:3]; !slices.Equal(got, want) {
		t.Fatalf("transitions %v, want %v", got, want)
	}
}

// Rejections prove the provider is up: they never open the breaker and are
// never retried.
func TestRejectionsDoNotTripOrRetry(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.BreakerFailures = 2
	c := providerclient.New(cfg)
	bad := payment("bad-1")
	bad.CreditParty.Key = "not-an-email"
	for i := range 10 {
		_, err := c.CreatePayment(t.Context(), bad)
		var pe *providerclient.Error
		if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrUnavailable) ||
			!errors.As(err, &pe) || pe.StatusCode != 422 || pe.Message != "creditParty.key must be a valid email address" {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if got := p.requests("/v2/pix/payment"); got != 10 {
		t.Fatalf("%d requests for 10 rejected calls: a 4xx was retried or short-circuited", got)
	}
	if _, err := c.CreatePayment(t.Context(), payment("good-1")); err != nil {
		t.Fatalf("after rejections: %v", err)
	}
	if got := p.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("payments created %d, want 1", got)
	}
}
