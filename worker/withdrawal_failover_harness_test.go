package worker

import (
	"context"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
)

// twoProviders makes the harness's workers use a fleet of the default
// provider at defaultURL and provider b on the harness's sandbox, and
// routes every integrator's withdrawals default→b.
func (h *harness) twoProviders(defaultURL string) {
	h.t.Helper()
	member := func(name, url string) fleet.Member {
		cfg := providerclient.Config{Name: name, BaseURL: url, ClientID: "sandbox", ClientSecret: "sandbox",
			Timeout: 500 * time.Millisecond, RetryMaxElapsed: -1, BreakerOpenTimeout: 200 * time.Millisecond}
		return fleet.Member{Config: cfg, Connector: family.NewConnector(cfg)}
	}
	fl, err := fleet.New(fleet.Options{}, member(providerclient.DefaultName, defaultURL), member("b", h.sandboxURL()))
	if err != nil {
		h.t.Fatal(err)
	}
	h.conn = fl
	ctx := context.Background()
	if _, err := h.db.AddProvider(ctx, storage.Provider{Name: "b", Kind: "family", URL: h.sandboxURL(), Enabled: true}); err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.db.SetRoute(ctx, storage.Route{Charges: []storage.RouteStep{{Provider: storage.DefaultProvider}},
		Withdrawals: []string{storage.DefaultProvider, "b"}}); err != nil {
		h.t.Fatal(err)
	}
}

// sandboxURL is the base URL of the harness's sandbox.
func (h *harness) sandboxURL() string { return h.sbURL }

// The default provider refuses connections (nothing listens): the
// withdrawal's first send proves it has no record there, so it is sent at
// b, once, and recorded at b.
func TestWithdrawalRefusedAtTheDefaultIsSentAtB(t *testing.T) {
	h := newHarness(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	h.twoProviders(closed)
	h.start()
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.eventually("withdrawal sent at b", 10*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	got := h.withdrawal(w.ID)
	if got.Provider != "b" || h.sb.Stats().PaymentsCreated != 1 {
		t.Fatalf("withdrawal at %q, %d payments at b; want sent once, at b", got.Provider, h.sb.Stats().PaymentsCreated)
	}
	h.auditClean()
}

// The default provider takes the payment and its answer is lost: the
// outcome is unknown, so the withdrawal stays with it and is resolved
// there (sent again under the same id, which the provider deduplicates);
// b never sees it.
func TestWithdrawalAmbiguousAtTheDefaultStaysThere(t *testing.T) {
	h := newHarness(t)
	other := sandbox.New(sandbox.Config{SettleDelay: time.Hour})
	other.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v2/pix/payment"}})
	srv := httptest.NewServer(other.Handler())
	t.Cleanup(func() { srv.Close(); other.Close() })
	h.twoProviders(srv.URL)
	h.start()
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.eventually("the payment made at the default provider", 10*time.Second, func() bool { return other.Stats().PaymentsCreated == 1 })
	other.SetFaults(sandbox.Faults{})
	h.eventually("withdrawal resolved at the default provider", 20*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	got := h.withdrawal(w.ID)
	if got.Provider != storage.DefaultProvider || other.Stats().PaymentsCreated != 1 || h.sb.Stats().PaymentsCreated != 0 {
		t.Fatalf("withdrawal at %q; payments at the default %d, at b %d; want one, at the default",
			got.Provider, other.Stats().PaymentsCreated, h.sb.Stats().PaymentsCreated)
	}
	h.auditClean()
}
