package fleet

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixgate/pixgate/providerclient"
)

// A charge on the route a→b, for every answer of a (and b).
func TestIssueChargeFailover(t *testing.T) {
	for _, tc := range []struct {
		name           string
		aCreates       []error
		aReads         []error
		bCreates       []error
		wantProvider   string // the provider that holds (or may hold) the charge
		wantErr        error  // nil: created
		wantACreates   int
		wantAReads     int
		wantBCreates   int
		wantFailovers  float64
		failoverReason string
	}{
		{name: "a creates it", wantProvider: "a", wantACreates: 1},
		{name: "a refuses the connection: at b", aCreates: []error{errRefused}, wantProvider: "b",
			wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unavailable"},
		{name: "a answers 503: at b", aCreates: []error{err503}, wantProvider: "b",
			wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unavailable"},
		{name: "a answers 429: at b", aCreates: []error{err429}, wantProvider: "b",
			wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unavailable"},
		{name: "a has no charges: at b", aCreates: []error{errNoCharge}, wantProvider: "b",
			wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unsupported"},
		{name: "a rejects it: the integrator sees why, b is not asked", aCreates: []error{errRejected},
			wantErr: providerclient.ErrRejected, wantACreates: 1},
		{name: "a times out and has no record of it: at b", aCreates: []error{errTimeout}, aReads: []error{errAbsent},
			wantProvider: "b", wantACreates: 1, wantAReads: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "not_found_after_timeout"},
		{name: "a times out but has it: asked again at a for its QR code", aCreates: []error{errTimeout, nil}, aReads: []error{nil},
			wantProvider: "a", wantACreates: 2, wantAReads: 1},
		{name: "a times out and a bare 404 answers the read: it stays with a", aCreates: []error{errTimeout}, aReads: []error{errNotFound},
			wantProvider: "a", wantErr: providerclient.ErrUnknownOutcome, wantACreates: 1, wantAReads: 1},
		{name: "a times out and cannot be read: it stays with a", aCreates: []error{errTimeout}, aReads: []error{errRefused},
			wantProvider: "a", wantErr: providerclient.ErrUnknownOutcome, wantACreates: 1, wantAReads: 1},
		{name: "a times out, has it, then times out again: it stays with a", aCreates: []error{errTimeout, errTimeout}, aReads: []error{nil},
			wantProvider: "a", wantErr: providerclient.ErrUnknownOutcome, wantACreates: 2, wantAReads: 1},
		{name: "both down: nobody holds it", aCreates: []error{errRefused}, bCreates: []error{err503},
			wantErr: providerclient.ErrUnavailable, wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unavailable"},
		{name: "a down, b times out: it stays with b (the last, read by the retry)", aCreates: []error{errRefused}, bCreates: []error{errTimeout},
			wantProvider: "b", wantErr: providerclient.ErrUnknownOutcome, wantACreates: 1, wantBCreates: 1, wantFailovers: 1, failoverReason: "unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newFake("a"), newFake("b")
			a.creates, a.reads, b.creates = tc.aCreates, tc.aReads, tc.bCreates
			reg := prometheus.NewRegistry()
			fl := newFleet(t, Options{Metrics: reg}, false, a, b)
			ch, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, providerclient.ChargeRequest{ID: "c1"})
			if tc.wantErr == nil && (err != nil || ch == nil || ch.BRCode != "br-"+tc.wantProvider) {
				t.Fatalf("got %+v, %v; want a charge of %s", ch, err, tc.wantProvider)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if provider != tc.wantProvider {
				t.Errorf("provider = %q, want %q", provider, tc.wantProvider)
			}
			if got := []int{a.count("create"), a.count("read"), b.count("create")}; !slices.Equal(got, []int{tc.wantACreates, tc.wantAReads, tc.wantBCreates}) {
				t.Errorf("a creates, a reads, b creates = %v, want %v", got, []int{tc.wantACreates, tc.wantAReads, tc.wantBCreates})
			}
			if tc.wantFailovers > 0 {
				if got := failovers(t, reg); got[tc.failoverReason] != tc.wantFailovers || len(got) != 1 {
					t.Errorf("failovers from a by reason = %v, want %v of %s", got, tc.wantFailovers, tc.failoverReason)
				}
			} else if got := failovers(t, reg); len(got) != 0 {
				t.Errorf("failovers = %v, want none", got)
			}
		})
	}
}

// Every provider but the last is tried once, so failover is immediate;
// the last keeps its in-process retries, as a single provider always had.
func TestIssueChargeRetriesOnlyTheLast(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	a.creates = []error{errRefused}
	b.creates = []error{err503, nil}
	fl := newFleet(t, Options{}, true, a, b)
	_, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, providerclient.ChargeRequest{ID: "c1"})
	if err != nil || provider != "b" || a.count("create") != 1 || b.count("create") != 2 {
		t.Fatalf("provider %q, err %v, a tried %d times, b %d; want b, after 1 and 2", provider, err, a.count("create"), b.count("create"))
	}
}

// A provider whose breaker is open is tried last: the charge goes to b
// without a being called.
func TestIssueChargeSkipsAnOpenBreaker(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	a.creates = []error{errRefused}
	fl, err := New(Options{}, Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1, BreakerFailures: 1, BreakerFailureRatio: 1}, Connector: a},
		Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1}, Connector: b})
	if err != nil {
		t.Fatal(err)
	}
	route := Route{{Provider: "a"}, {Provider: "b"}}
	if _, p, err := fl.IssueCharge(context.Background(), route, providerclient.ChargeRequest{ID: "c1"}); err != nil || p != "b" {
		t.Fatalf("first charge: %q, %v", p, err)
	}
	if got := names(fl.plan(context.Background(), route, providerclient.LaneCreate)); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("plan with a's breaker open = %v, want [b a]", got)
	}
	if _, p, err := fl.IssueCharge(context.Background(), route, providerclient.ChargeRequest{ID: "c2"}); err != nil || p != "b" || a.count("create") != 1 {
		t.Fatalf("second charge: %q, %v; a called %d times, want once", p, err, a.count("create"))
	}
}

// A full bulkhead fails at once as not created: the charge goes to b while
// a's one slot is held by a slow call.
func TestIssueChargeBulkheadFull(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	a.hold, a.entered = make(chan struct{}), make(chan struct{})
	fl := newFleet(t, Options{MaxInFlight: 1}, false, a, b)
	route := Route{{Provider: "a"}, {Provider: "b"}}
	slow := make(chan string)
	go func() {
		_, p, _ := fl.IssueCharge(context.Background(), route, providerclient.ChargeRequest{ID: "slow"})
		slow <- p
	}()
	<-a.entered
	a.entered = nil
	if _, p, err := fl.IssueCharge(context.Background(), route, providerclient.ChargeRequest{ID: "c1"}); err != nil || p != "b" {
		t.Fatalf("charge while a is full: %q, %v; want b", p, err)
	}
	close(a.hold)
	if p := <-slow; p != "a" {
		t.Fatalf("the slow charge ended at %q, want a", p)
	}
}

// The fleet as one connector creates along its default route.
func TestFleetConnectorCreatesAlongTheDefaultRoute(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	a.creates = []error{errRefused}
	fl := newFleet(t, Options{}, false, a, b)
	var c providerclient.Connector = fl
	ch, err := c.CreateCharge(context.Background(), providerclient.ChargeRequest{ID: "c1"})
	if err != nil || ch.BRCode != "br-b" || c.Name() != "a" {
		t.Fatalf("charge %+v, %v, name %q", ch, err, c.Name())
	}
}

// failovers reads pixgate_provider_failovers_total of charges from
// provider a, by reason.
func failovers(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "pixgate_provider_failovers_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			l := labels(m)
			if l["provider"] == "a" && l["op"] == providerclient.OpCharge {
				out[l["reason"]] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// Each provider is told to notify its own webhook URL, whatever the caller
// asked; one without its own keeps the caller's.
func TestEachProviderNotifiesItsOwnPath(t *testing.T) {
	a, b, c := newFake("a"), newFake("b"), newFake("c")
	a.creates = []error{errRefused}
	fl, err := New(Options{}, Member{Config: providerclient.Config{Name: "a", RetryMaxElapsed: -1, WebhookURL: "https://p/webhooks/provider/a/ta"}, Connector: a},
		Member{Config: providerclient.Config{Name: "b", RetryMaxElapsed: -1, WebhookURL: "https://p/webhooks/provider/b/tb"}, Connector: b},
		Member{Config: providerclient.Config{Name: "c", RetryMaxElapsed: -1}, Connector: c})
	if err != nil {
		t.Fatal(err)
	}
	req := providerclient.ChargeRequest{ID: "c1", NotifyURL: "https://p/webhooks/provider/t"}
	if _, p, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, req); err != nil || p != "b" {
		t.Fatalf("%q, %v", p, err)
	}
	if !slices.Equal(a.notify, []string{"https://p/webhooks/provider/a/ta"}) || !slices.Equal(b.notify, []string{"https://p/webhooks/provider/b/tb"}) {
		t.Fatalf("a told %v, b told %v", a.notify, b.notify)
	}
	pc, _ := fl.Provider("c")
	if _, err := pc.CreateCharge(context.Background(), req); err != nil || !slices.Equal(c.notify, []string{req.NotifyURL}) {
		t.Fatalf("c: %v, told %v; want the caller's URL", err, c.notify)
	}
}
