package fleet

import (
	"context"
	"errors"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// The verdicts on the errors real connectors make, against the sandbox
// over HTTP and a port where nothing listens.

func sandboxAt(t *testing.T, f sandbox.Faults) (*sandbox.Sandbox, string) {
	t.Helper()
	sb := sandbox.New(sandbox.Config{SettleDelay: time.Hour})
	sb.SetFaults(f)
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	return sb, srv.URL
}

// closedPort is an address where nothing listens: a connection is refused.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

func familyMember(name, url string, timeout time.Duration) Member {
	cfg := providerclient.Config{Name: name, BaseURL: url, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret,
		Timeout: timeout, RetryMaxElapsed: -1}
	return Member{Config: cfg, Connector: family.NewConnector(cfg)}
}

var realCharge = providerclient.ChargeRequest{ID: "0193f1a2-7c4e-7d3a-9c1b-5e6f7a8b9c0d", Amount: money.Money(1000),
	Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"}}

// a refuses connections: the charge is created at b, and a's refusal
// proves that a payout sent there first has no record of it.
func TestRealRefusedConnectionFailsOver(t *testing.T) {
	sbB, urlB := sandboxAt(t, sandbox.Faults{})
	fl, err := New(Options{}, familyMember("a", closedPort(t), 2*time.Second), familyMember("b", urlB, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ch, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, realCharge)
	if err != nil || provider != "b" || ch.BRCode == "" || sbB.Stats().ChargesCreated != 1 {
		t.Fatalf("charge %+v at %q: %v (b created %d)", ch, provider, err, sbB.Stats().ChargesCreated)
	}
	a, _ := fl.Provider("a")
	_, err = a.SendPix(context.Background(), providerclient.PayoutRequest{ID: "w1", Amount: 1000,
		Recipient: providerclient.Recipient{Name: "B", KeyType: "EMAIL", Key: "b@example.com"}})
	if v := PayoutVerdict(err, true); v != MoveOn {
		t.Fatalf("refused payout %v: verdict %d on a first send, want MoveOn", err, v)
	}
	if v := PayoutVerdict(err, false); v != ReadFirst {
		t.Fatalf("refused payout %v: verdict %d on a later send, want ReadFirst", err, v)
	}
}

// a is down (503 on every call): the charge is created at b; a payout a
// answered 503 stays with a.
func TestRealOutageFailsOverCharges(t *testing.T) {
	_, urlA := sandboxAt(t, sandbox.Faults{Outage: true})
	sbB, urlB := sandboxAt(t, sandbox.Faults{})
	fl, err := New(Options{}, familyMember("a", urlA, 2*time.Second), familyMember("b", urlB, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, realCharge); err != nil || provider != "b" ||
		sbB.Stats().ChargesCreated != 1 {
		t.Fatalf("charge at %q: %v", provider, err)
	}
	a, _ := fl.Provider("a")
	_, err = a.SendPix(context.Background(), providerclient.PayoutRequest{ID: "w1", Amount: 1000,
		Recipient: providerclient.Recipient{Name: "B", KeyType: "EMAIL", Key: "b@example.com"}})
	if v := PayoutVerdict(err, true); !errors.Is(err, providerclient.ErrUnavailable) || v != Stay {
		t.Fatalf("payout during an outage %v: verdict %d, want Stay", err, v)
	}
}

// a processes the charge and never answers: the outcome is unknown, a is
// read first, and since the family reads no charge by PixGate's id the
// charge stays with a; b is never asked.
func TestRealTimeoutStaysWithItsProvider(t *testing.T) {
	sbA, urlA := sandboxAt(t, sandbox.Faults{TimeoutRate: 1, Routes: []string{"/v2/pix/qrcode"}})
	sbB, urlB := sandboxAt(t, sandbox.Faults{})
	fl, err := New(Options{}, familyMember("a", urlA, 300*time.Millisecond), familyMember("b", urlB, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	_, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, realCharge)
	if !errors.Is(err, providerclient.ErrUnknownOutcome) || provider != "a" {
		t.Fatalf("charge at %q: %v; want it left with a, outcome unknown", provider, err)
	}
	if sbA.Stats().ChargesCreated != 1 || sbB.Stats().ChargesCreated != 0 {
		t.Fatalf("charges created at a %d, at b %d; want 1 and 0", sbA.Stats().ChargesCreated, sbB.Stats().ChargesCreated)
	}
}
