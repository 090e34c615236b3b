package family_test

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// A request the provider processed but never answered is an unknown
// outcome; repeating it with the same external_id pays once.
func TestTimeoutAfterSendingIsUnknownOutcome(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Timeout = 150 * time.Millisecond
	c := family.NewBase(cfg) // the HTTP layer alone: one request a call
	if _, err := c.Balance(t.Context()); err != nil {
		t.Fatal(err)
	}
	p.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v2/pix/payment"}})
	_, err := c.CreatePayment(t.Context(), payment("wd-42"))
	var pe *providerclient.Error
	if !errors.Is(err, providerclient.ErrUnknownOutcome) || errors.Is(err, providerclient.ErrUnavailable) ||
		!errors.As(err, &pe) || pe.StatusCode != 0 {
		t.Fatalf("err = %v, want unknown outcome", err)
	}
	if got := p.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("payments created %d, want 1", got)
	}

	p.sb.ResetFaults()
	again, err := c.CreatePayment(t.Context(), payment("wd-42"))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.sb.Stats().PaymentsCreated; got != 1 {
		t.Fatalf("the repeat paid again: %d payments", got)
	}
	tx, err := p.sb.Transaction(again.TransactionID)
	if err != nil || tx.ExternalID != "wd-42" || tx.Amount != again.Amount {
		t.Fatalf("repeat answered %+v; sandbox has %+v, %v", again, tx, err)
	}
}

// The retry layer resolves a lost answer by itself when the call carries an
// external_id: the provider answers the repeat with the first payment.
func TestRetryResolvesLostAnswerOnce(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Timeout, cfg.RetryMaxElapsed = 100*time.Millisecond, 2*time.Second
	c := layered(cfg)
	_, _ = c.Balance(t.Context())
	p.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v2/pix/payment"}})
	go func() {
		waitFor(t, "the first attempt", func() bool { return p.requests("/v2/pix/payment") >= 1 })
		p.sb.ResetFaults()
	}()
	got, err := c.SendPix(t.Context(), payout("wd-lost"))
	if err != nil {
		t.Fatalf("retried payment: %v", err)
	}
	if n := p.requests("/v2/pix/payment"); n < 2 {
		t.Fatalf("%d payment requests, want a retry", n)
	}
	if tx, err := p.sb.Transaction(got.ProviderID); p.sb.Stats().PaymentsCreated != 1 || err != nil || tx.ExternalID != "wd-lost" {
		t.Fatalf("payments created %d (answer %+v), want 1", p.sb.Stats().PaymentsCreated, got)
	}
}

func TestTransientFailuresRetriedOnlyWhenSafe(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	p.sb.SetFaults(sandbox.Faults{ErrorRate: 1, Routes: []string{"/v2/pix/payment", "/v2/balance"}})
	tests := []struct {
		name    string
		path    string
		call    func(providerclient.Connector) error
		retried bool
	}{
		{"balance", "/v2/balance", func(c providerclient.Connector) error { _, err := c.Balance(t.Context()); return err }, true},
		{"payment with PixGate's id", "/v2/pix/payment", func(c providerclient.Connector) error {
			_, err := c.SendPix(t.Context(), payout("x-1"))
			return err
		}, true},
		{"payment without an id", "/v2/pix/payment", func(c providerclient.Connector) error { _, err := c.SendPix(t.Context(), payout("")); return err }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := p.config() // retries for up to 300 ms
			cfg.BreakerFailures = 100
			before := p.requests(tt.path)
			err := tt.call(layered(cfg))
			var pe *providerclient.Error
			if !errors.Is(err, providerclient.ErrUnavailable) || !errors.As(err, &pe) || pe.StatusCode != 500 {
				t.Fatalf("err = %v, want unavailable (500)", err)
			}
			if n := p.requests(tt.path) - before; (n > 1) != tt.retried {
				t.Fatalf("%d requests; retried = %v, want %v", n, n > 1, tt.retried)
			}
		})
	}
	if got := p.sb.Stats().PaymentsCreated; got != 0 {
		t.Fatalf("%d payments created by refused requests", got)
	}
}

func TestConnectionRefusedIsUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := family.NewBase(providerclient.Config{BaseURL: "http://" + addr, ClientID: "a", ClientSecret: "b"})
	_, err = c.Balance(t.Context())
	if !errors.Is(err, providerclient.ErrUnavailable) || errors.Is(err, providerclient.ErrUnknownOutcome) {
		t.Fatalf("err = %v, want unavailable", err)
	}
}
