package family_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// With the extensions on, the connector reads and lists the sandbox's
// infractions, reads their MED returns and its key directory; with them
// off (a real provider of the family) it offers none and sends nothing.
func TestExtensions(t *testing.T) {
	ctx := context.Background()
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	off := family.NewConnector(cfg)
	cfg.Extensions = true
	on := family.NewConnector(cfg)
	if c := off.Capabilities(); c.Infractions || c.KeyLookup || c.InfractionDefense || c.InfractionList {
		t.Fatalf("without extensions: %+v", c)
	}
	if c := on.Capabilities(); !c.Infractions || !c.InfractionNotifications || !c.KeyLookup || c.InfractionDefense || !c.InfractionList {
		t.Fatalf("with extensions: %+v", c)
	}

	ch, err := on.CreateCharge(ctx, providerclient.ChargeRequest{ID: "c-1", Amount: money.FromReais(50, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	opened, err := p.sb.OpenInfraction(ch.ProviderID, money.FromReais(20, 0), "golpe")
	if err != nil {
		t.Fatal(err)
	}
	ref := providerclient.InfractionRef{ProviderID: opened.TransactionID}
	if _, err := off.ReadInfraction(ctx, ref); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("read without extensions: %v", err)
	}
	inf, err := on.ReadInfraction(ctx, ref)
	if err != nil || inf.Status != providerclient.InfractionOpen || inf.Amount != money.FromReais(20, 0) ||
		inf.Charge.ProviderID != ch.ProviderID || inf.Reason != "golpe" || inf.DueAt.IsZero() || inf.Return != nil {
		t.Fatalf("read: %+v, %v", inf, err)
	}
	if _, err := on.ReadInfraction(ctx, providerclient.InfractionRef{ProviderID: ch.ProviderID}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("a charge read as an infraction: %v", err)
	}
	if err := on.DefendInfraction(ctx, ref, "autorizado"); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("defense: %v", err)
	}
	if _, err := p.sb.CloseInfraction(opened.TransactionID, contract.StatusAgreed, ""); err != nil {
		t.Fatal(err)
	}
	inf, err = on.ReadInfraction(ctx, ref)
	if err != nil || inf.Status != providerclient.InfractionAgreed || inf.Return == nil || inf.ClosedAt.IsZero() {
		t.Fatalf("read after the close: %+v, %v", inf, err)
	}
	waitFor(t, "the MED return", func() bool {
		ret, err := on.Read(ctx, providerclient.Ref{Kind: providerclient.KindMedReturn, ProviderID: inf.Return.ProviderID})
		return err == nil && ret.Kind == providerclient.KindMedReturn && ret.Status == providerclient.StatusCompleted
	})

	holder, err := on.LookupKey(ctx, "EMAIL", "fraude@example.com")
	if err != nil || !holder.FraudMarked || holder.Document == "" || holder.ISPB == "" {
		t.Fatalf("lookup: %+v, %v", holder, err)
	}
	if _, err := on.LookupKey(ctx, "EMAIL", "inexistente@example.com"); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("lookup of a missing key: %v", err)
	}
	if _, err := off.LookupKey(ctx, "EMAIL", "cliente@example.com"); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("lookup without extensions: %v", err)
	}
}

// The family notifies infractions as transactions of their own.
func TestInfractionNotificationParses(t *testing.T) {
	events, err := family.NewConnector(providerclient.Config{}).ParseNotification(nil,
		[]byte(`{"requestBody":{"transactionType":"INFRACTION","transactionId":"inf1","pix_id":"c1","amount":10,"status":"OPEN"}}`))
	if err != nil || len(events) != 1 || events[0].Kind != providerclient.KindInfraction || events[0].ProviderID != "inf1" ||
		events[0].Status != providerclient.Status(contract.StatusOpen) {
		t.Fatalf("events %+v, %v", events, err)
	}
}
