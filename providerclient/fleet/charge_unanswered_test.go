package fleet

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/providerclient"
)

// A create is never hedged, and a create unanswered by its attempt's
// deadline moves the charge to the next provider at once, without reading
// the first: the charge is b's, and a's create was cut.
func TestIssueChargeLeavesAnUnansweredProvider(t *testing.T) {
	a, b := newHanging("a"), newHanging("b")
	a.hangCreates[1] = true
	reg := prometheus.NewRegistry()
	fl := hedgeFleet(t, Options{CreateAttemptTimeout: 20 * time.Millisecond, Metrics: reg}, time.Hour, a, b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	ch, provider, err := fl.IssueCharge(ctx, Route{{Provider: "a"}, {Provider: "b"}}, providerclient.ChargeRequest{ID: "c1"})
	if err != nil || provider != "b" || ch == nil || ch.BRCode != "br-b" {
		t.Fatalf("got %+v at %q, %v; want b's charge", ch, provider, err)
	}
	if ac, ar, bc := a.counts("create"), a.counts("read"), b.counts("create"); ac != 1 || ar != 0 || bc != 1 {
		t.Errorf("a creates %d, a reads %d, b creates %d; want 1, 0, 1", ac, ar, bc)
	}
	if got := failovers(t, reg); got["create_unanswered"] != 1 || len(got) != 1 {
		t.Errorf("failovers from a by reason = %v, want one create_unanswered", got)
	}
	if _, fails := healthCounts(fl, "a"); fails != 1 {
		t.Errorf("a's health counted %d failures, want the unanswered create", fails)
	}
}

// When the rest of the route fails too, the charge is said to be possibly
// at the provider given up on, where a retry asks first.
func TestIssueChargeNamesTheProviderGivenUpOn(t *testing.T) {
	a, b := newHanging("a"), newHanging("b")
	a.hangCreates[1] = true
	b.fake.creates = []error{err503}
	fl := hedgeFleet(t, Options{CreateAttemptTimeout: 20 * time.Millisecond}, time.Hour, a, b)
	_, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, providerclient.ChargeRequest{ID: "c1"})
	if !errors.Is(err, providerclient.ErrUnavailable) || provider != "a" {
		t.Fatalf("got %q, %v; want unavailable, possibly at a", provider, err)
	}
}

// The last provider of a route is not cut short: it has the caller's time.
func TestIssueChargeLastProviderHasTheCallersTime(t *testing.T) {
	a := newHanging("a")
	a.hangCreates[1] = true
	fl := hedgeFleet(t, Options{CreateAttemptTimeout: time.Millisecond}, time.Hour, a)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		waitFor(t, func() bool { _, most, _ := a.stats(); return most == 1 }, "the create sent")
		cancel()
	}()
	_, provider, err := fl.IssueCharge(ctx, Route{{Provider: "a"}}, providerclient.ChargeRequest{ID: "c1"})
	if !errors.Is(err, context.Canceled) || provider != "a" {
		t.Fatalf("got %q, %v; want the caller's cancellation, at a", provider, err)
	}
}
