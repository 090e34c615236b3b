package family_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// provider is a sandbox served over real HTTP.
type provider struct {
	sb  *sandbox.Sandbox
	srv *httptest.Server
}

func newProvider(t *testing.T, cfg sandbox.Config) *provider {
	t.Helper()
	if cfg.SettleDelay == 0 {
		cfg.SettleDelay = 20 * time.Millisecond
	}
	sb := sandbox.New(cfg)
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close) // after sb.Close, which releases held requests
	t.Cleanup(sb.Close)
	return &provider{sb: sb, srv: srv}
}

// config points a client at the sandbox with test-sized timings.
func (p *provider) config() providerclient.Config {
	return providerclient.Config{
		BaseURL: p.srv.URL, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret,
		Timeout: 2 * time.Second, BreakerOpenTimeout: time.Second, RetryMaxElapsed: 300 * time.Millisecond,
	}
}

func (p *provider) requests(path string) int { return p.sb.Stats().Requests[path] }

func payment(externalID string) family.PaymentRequest {
	return family.PaymentRequest{
		Amount: money.FromReais(25, 10), ExternalID: externalID, Description: "saque",
		CreditParty: family.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
	}
}

// waitFor polls cond every few milliseconds until it holds or 5 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// layered is the family contract's connector with every layer PixGate
// gives a provider (providerclient.Wrap: retries, breaker): the layers'
// tests run against the family's sandbox through it.
func layered(cfg providerclient.Config) providerclient.Connector {
	return providerclient.Wrap(family.NewConnector(cfg), cfg)
}

// payout is a PIX send of R$ 25.10 with PixGate's id (none: "").
func payout(id string) providerclient.PayoutRequest {
	return providerclient.PayoutRequest{
		ID: id, Amount: money.FromReais(25, 10), Description: "saque",
		Recipient: providerclient.Recipient{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
	}
}
