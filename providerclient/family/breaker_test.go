package family_test

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

// record notes every lane's transitions; each test opens one lane.
func (tr *transitions) record(_ providerclient.Lane, from, to string) {
	tr.mu.Lock()
	tr.got = append(tr.got, from+"→"+to)
	tr.mu.Unlock()
}

func (tr *transitions) list() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.got)
}

// The breaker opens on an outage and then sends nothing. Its open interval
// (a minute) cannot elapse during the test, and it is longer than the retry
// layer's whole budget (300 ms), so no retry wait can reach half-open and let
// a probe through: the request counts below hold on any machine.
func TestBreakerOpensAndFailsFast(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	var tr transitions
	cfg := p.config()
	// After one success, four failures are 80% of the calls.
	cfg.BreakerFailures, cfg.BreakerOpenTimeout, cfg.OnBreakerStateChange = 4, time.Minute, tr.record
	c := layered(cfg)
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
		if p.requests("/v2/balance")-before > 4 {
			t.Fatal("breaker still closed after 4 failures, 80% of the calls")
		}
	}
	if got := p.requests("/v2/balance") - before; got != 4 {
		t.Fatalf("%d requests reached the provider before the breaker opened, want 4", got)
	}

	// Open: every read fails fast as providerclient.ErrBreakerOpen, nothing
	// is sent. A payment is judged by the send lane's breaker, still
	// closed: it reaches the provider (down, so unavailable).
	sent := p.requests("/v2/balance")
	for range 20 {
		_, err := c.Balance(ctx)
		if !errors.Is(err, providerclient.ErrBreakerOpen) || !errors.Is(err, providerclient.ErrUnavailable) {
			t.Fatalf("while open: %v", err)
		}
	}
	if got := p.requests("/v2/balance"); got != sent {
		t.Fatalf("%d requests sent while the breaker was open", got-sent)
	}
	if got, want := tr.list(), []string{"closed→open"}; !slices.Equal(got, want) {
		t.Fatalf("transitions %v, want %v", got, want)
	}
	payments := p.requests("/v2/pix/payment")
	if _, err := c.SendPix(ctx, payout("while-open")); !errors.Is(err, providerclient.ErrUnavailable) {
		t.Fatalf("a payment while the read lane is open: %v, want it sent and unavailable", err)
	}
	if p.requests("/v2/pix/payment") == payments {
		t.Fatal("a payment was refused by the read lane's breaker")
	}
}

// After the outage the breaker lets probes through once its open interval
// has passed; three successes in a row close it. Without the retry layer
// every call is one request, so nothing but the breaker decides what is
// sent, whatever the machine's speed.
func TestBreakerClosesWhenTheProviderRecovers(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c, tr := unretriedClient(p, 4, 50*time.Millisecond)
	ctx := t.Context()
	if _, err := c.Balance(ctx); err != nil {
		t.Fatal(err)
	}
	p.sb.SetFaults(sandbox.Faults{Outage: true})
	for range 4 { // with the success before, 80% of the calls
		if _, err := c.Balance(ctx); errors.Is(err, providerclient.ErrBreakerOpen) || !errors.Is(err, providerclient.ErrUnavailable) {
			t.Fatalf("during the outage: %v", err)
		}
	}
	// The breaker is open now; it turns half-open lazily, on the first call
	// after its interval, so a slow machine cannot reorder what follows.
	p.sb.ResetFaults()
	sent := p.requests("/v2/balance")
	waitFor(t, "a first probe to succeed", func() bool {
		_, err := c.Balance(ctx)
		return err == nil
	})
	if got, want := tr.list(), []string{"closed→open", "open→half-open"}; !slices.Equal(got, want) {
		t.Fatalf("after one probe: transitions %v, want %v", got, want)
	}
	for range 2 {
		if _, err := c.Balance(ctx); err != nil {
			t.Fatalf("probe: %v", err)
		}
	}
	if got := p.requests("/v2/balance") - sent; got != 3 {
		t.Fatalf("%d requests since the provider recovered, want the 3 probes", got)
	}
	want := []string{"closed→open", "open→half-open", "half-open→closed"}
	if got := tr.list(); !slices.Equal(got, want) {
		t.Fatalf("transitions %v, want %v", got, want)
	}
}

func TestBreakerReopensWhenTheProbeFails(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	c, tr := unretriedClient(p, 1, 50*time.Millisecond)
	_, _ = c.Balance(t.Context())
	p.sb.SetFaults(sandbox.Faults{ErrorRate: 1})
	for len(tr.list()) == 0 { // failures until they are 80% of the calls
		if _, err := c.Balance(t.Context()); errors.Is(err, providerclient.ErrBreakerOpen) || !errors.Is(err, providerclient.ErrUnavailable) {
			t.Fatalf("before the breaker opened: %v", err)
		}
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

// unretriedClient has no retry layer, so each call is one request and only
// the breaker (opening after minFailures, open for open) decides what is sent.
func unretriedClient(p *provider, minFailures uint32, open time.Duration) (providerclient.Connector, *transitions) {
	tr := &transitions{}
	cfg := p.config()
	cfg.BreakerFailures, cfg.BreakerOpenTimeout, cfg.OnBreakerStateChange = minFailures, open, tr.record
	cfg.RetryMaxElapsed = -1
	return layered(cfg), tr
}

// Rejections prove the provider is up: they never open the breaker and are
// never retried.
func TestRejectionsDoNotTripOrRetry(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.BreakerFailures = 2
	c := layered(cfg)
	bad := payout("bad-1")
	bad.Recipient.Key = "not-an-email"
	for i := range 10 {
		_, err := c.SendPix(t.Context(), bad)
		var pe *providerclient.Error
		if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrUnavailable) ||
			!errors.As(err, &pe) || pe.StatusCode != 422 || pe.Message != "creditParty.key must be a valid email address" {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if got := p.requests("/v2/pix/payment"); got != 10 {
		t.Fatalf("%d requests for 10 rejected calls: a 4xx was retried or short-circuited", got)
	}
	if _, err := c.SendPix(t.Context(), payout("good-1")); err != nil {
		t.Fatalf("after rejections: %v", err)
	}
	if got := p.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("payments created %d, want 1", got)
	}
}
