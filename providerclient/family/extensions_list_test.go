package family_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// With the extensions on, the connector lists the infractions opened or
// closed since a time, through every page, each as ReadInfraction gives
// it (the MED return of an agreed one included); an empty list is no
// error, and without the extensions it lists nothing and sends nothing.
func TestListInfractions(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	off := family.NewConnector(cfg)
	cfg.Extensions = true
	on := family.NewConnector(cfg)

	if _, err := off.ListInfractions(ctx, time.Now().Add(-time.Hour)); !errors.Is(err, providerclient.ErrUnsupported) ||
		p.requests(contract.PathInfractions) != 0 {
		t.Fatalf("without extensions: %v, %d requests", err, p.requests(contract.PathInfractions))
	}
	if list, err := on.ListInfractions(ctx, time.Now().Add(-time.Hour)); err != nil || len(list) != 0 {
		t.Fatalf("none yet: %+v, %v", list, err)
	}

	ch, err := on.CreateCharge(ctx, providerclient.ChargeRequest{ID: "c-1", Amount: money.FromReais(50, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	open := func() string {
		t.Helper()
		inf, err := p.sb.OpenInfraction(ch.ProviderID, 1, "golpe")
		if err != nil {
			t.Fatal(err)
		}
		return inf.TransactionID
	}
	old, closedLater := open(), open()
	// The family's dates go to the second: since is the next one.
	since := time.Now().Truncate(time.Second).Add(time.Second)
	time.Sleep(time.Until(since))
	want := []string{closedLater}
	for range 2 * contract.InfractionsPerPage {
		want = append(want, open())
	}
	if _, err := p.sb.CloseInfraction(closedLater, contract.StatusAgreed, "procedente"); err != nil {
		t.Fatal(err)
	}

	before := p.requests(contract.PathInfractions)
	list, err := on.ListInfractions(ctx, since)
	if err != nil || len(list) != len(want) {
		t.Fatalf("since the new ones: %d infractions, %v; want %d", len(list), err, len(want))
	}
	if n := p.requests(contract.PathInfractions) - before; n != 3 {
		t.Fatalf("%d requests for %d infractions, want 3 pages", n, len(want))
	}
	for i, inf := range list {
		if inf.ProviderID != want[i] {
			t.Fatalf("item %d is %s, want %s (%s, opened before since, left out)", i, inf.ProviderID, want[i], old)
		}
	}
	for _, i := range []int{0, len(list) - 1} {
		read, err := on.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: list[i].ProviderID})
		if err != nil || !reflect.DeepEqual(list[i], *read) {
			t.Fatalf("listed %+v, read %+v, %v", list[i], read, err)
		}
	}
	if agreed := list[0]; agreed.Status != providerclient.InfractionAgreed || agreed.Return == nil || agreed.Return.ProviderID == "" ||
		agreed.Charge.ProviderID != ch.ProviderID || agreed.ClosedAt.IsZero() {
		t.Fatalf("the agreed one: %+v", agreed)
	}
	if last := list[len(list)-1]; last.Status != providerclient.InfractionOpen || last.Return != nil || last.Amount != 1 {
		t.Fatalf("an open one: %+v", last)
	}
	if list, err := on.ListInfractions(ctx, time.Now().Add(time.Hour)); err != nil || len(list) != 0 {
		t.Fatalf("since later: %+v, %v", list, err)
	}
}
