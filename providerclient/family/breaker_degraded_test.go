package family_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// A provider that fails half its calls is degraded, not down: the breaker
// must leave it in service. 1000 charge attempts meet the sandbox's seeded
// 50% error fault one request each (no retry layer), and the breaker's
// window is longer than the test, so it counts every attempt so far: the
// number of successes is the same on every run and depends on the breaker's
// rule alone. At least 45% of the attempts must succeed, none may be refused
// by the breaker, and it must never open.
func TestBreakerKeepsAHalfFailingProviderInService(t *testing.T) {
	p := newProvider(t, sandbox.Config{FaultSeed: 2024})
	var tr transitions
	cfg := p.config()
	cfg.RetryMaxElapsed, cfg.BreakerWindow, cfg.OnBreakerStateChange = -1, time.Hour, tr.record
	succeeded, refused := chargeAttempts(t, p, layered(cfg), 1000)
	t.Logf("%d of 1000 charge attempts succeeded at a 50%% provider error rate, without retries", succeeded)
	if succeeded*100 < 1000*45 || refused > 0 {
		t.Fatalf("%d of 1000 charge attempts succeeded and %d were refused by the breaker; want at least 45%% and none",
			succeeded, refused)
	}
	if got := tr.list(); len(got) != 0 {
		t.Fatalf("the breaker changed state at a 50%% error rate: %v", got)
	}
}

// chargeAttempts creates n charges one after the other while the sandbox
// fails half the charge requests, and counts the successes and the calls
// the breaker refused without sending.
func chargeAttempts(t *testing.T, p *provider, c providerclient.Connector, n int) (succeeded, refused int) {
	t.Helper()
	p.sb.SetFaults(sandbox.Faults{ErrorRate: 0.5, Routes: []string{"/v2/pix/qrcode"}})
	for i := range n {
		_, err := c.CreateCharge(t.Context(), providerclient.ChargeRequest{
			Amount: money.FromReais(10, 0), ID: fmt.Sprintf("degraded-%d", i),
			Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"},
		})
		switch {
		case err == nil:
			succeeded++
		case errors.Is(err, providerclient.ErrBreakerOpen):
			refused++
		case !errors.Is(err, providerclient.ErrUnavailable):
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	return succeeded, refused
}
