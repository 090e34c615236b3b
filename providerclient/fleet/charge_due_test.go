package fleet

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/money/due"
)

// A due-date charge is never asked of a provider that does not take them
// (it would issue an immediate charge): the route moves on to one that
// does, and with none the charge is unsupported.
func TestDueChargeSkipsProvidersWithout(t *testing.T) {
	a, b := newFake("a"), newFake("b")
	b.due = true
	fl := newFleet(t, Options{}, false, a, b)
	req := providerclient.ChargeRequest{ID: "c1", Due: &due.Terms{Original: 100}}
	ch, provider, err := fl.IssueCharge(context.Background(), Route{{Provider: "a"}, {Provider: "b"}}, req)
	if err != nil || provider != "b" || ch.BRCode != "br-b" || a.count("create") != 0 {
		t.Fatalf("issued %+v at %q (%v); a asked %d times", ch, provider, err, a.count("create"))
	}
	_, _, err = fl.IssueCharge(context.Background(), Route{{Provider: "a"}}, req)
	if !errors.Is(err, providerclient.ErrUnsupported) || a.count("create") != 0 {
		t.Fatalf("only a: %v, a asked %d times", err, a.count("create"))
	}
}
