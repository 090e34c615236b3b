package family_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueRequest is a due-date charge of R$ 80.00 due tomorrow in Brasília,
// payable 3 days after, with a fixed fine and interest per day.
func dueRequest() providerclient.ChargeRequest {
	terms := &due.Terms{Original: money.FromReais(80, 0), Date: due.Today(time.Now()).AddDays(1), DaysAfter: 3,
		Fine:     &due.Fine{Mode: due.FineFixed, Value: 500},
		Interest: &due.Interest{Mode: due.InterestFixedPerDay, Value: 10}}
	return providerclient.ChargeRequest{ID: "due-" + time.Now().Format("150405.000000000"), Amount: terms.Original,
		Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"}, Due: terms}
}

// dueConnector is the family connector of a provider that serves
// PixGate's extensions, due-date charges among them.
func dueConnector(p *provider) providerclient.Connector {
	cfg := p.config()
	cfg.Extensions = true
	return family.NewConnector(cfg)
}

// A due-date charge through PixGate's extension of the family contract:
// created, read back pending with its original amount, paid on its due
// date, and read back paid with the amount of that day.
func TestDueCharge(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	conn := dueConnector(p)
	ctx := t.Context()
	req := dueRequest()
	if !conn.Capabilities().DueCharges {
		t.Fatal("a family provider with the extensions does not take due-date charges")
	}
	ch, err := conn.CreateCharge(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	last := req.Due.LastDay().End().Truncate(time.Second)
	if ch.ProviderID == "" || ch.BRCode == "" || ch.Status != providerclient.StatusPending || !ch.ExpiresAt.Equal(last) {
		t.Fatalf("charge: %+v; want expiry %v", ch, last)
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID, ProviderID: ch.ProviderID, Due: true}
	pending, err := conn.Read(ctx, ref)
	if err != nil || pending.Status != providerclient.StatusPending || pending.Amount != req.Due.Original {
		t.Fatalf("pending: %+v, %v", pending, err)
	}
	want, err := req.Due.AmountOn(req.Due.Date)
	if err != nil || want.Total != req.Due.Original {
		t.Fatalf("the due date asks %+v, %v; want the original", want, err)
	}
	if _, err := p.sb.PayChargeAt(ch.ProviderID, sandbox.Payer{}, req.Due.Date.End().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	paid, err := conn.Read(ctx, ref)
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != want.Total || paid.EndToEndID == "" {
		t.Fatalf("paid: %+v, %v; want %s", paid, err, want.Total)
	}
}

// Paid late, the charge asks the day's amount, fine and interest
// included; a day past its validity is refused.
func TestDueChargePaidLate(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	conn := dueConnector(p)
	req := dueRequest()
	ch, err := conn.CreateCharge(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	day := req.Due.Date.AddDays(2)
	want, wantErr := req.Due.AmountOn(day)
	_, err = p.sb.PayChargeAt(ch.ProviderID, sandbox.Payer{}, day.End().Add(-time.Hour))
	if req.Due.LastDay().Before(day) || wantErr != nil {
		if !errors.Is(err, sandbox.ErrConflict) {
			t.Fatalf("paid on %s, past the last day %s: %v, want a refusal", day, req.Due.LastDay(), err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	paid, err := conn.Read(t.Context(), providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: ch.ProviderID, Due: true})
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != want.Total {
		t.Fatalf("paid late: %+v, %v; want %s", paid, err, want.Total)
	}
}

// A due-date charge without the payer's document is refused, naming it,
// before anything is sent; the provider refuses terms it finds wrong,
// naming the member; and a provider without PixGate's extensions is
// never sent one (it would issue an immediate charge).
func TestDueChargeRefusals(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	conn := dueConnector(p)
	ctx := t.Context()
	noDoc := dueRequest()
	noDoc.Payer.Document = ""
	if _, err := conn.CreateCharge(ctx, noDoc); !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), "payer.document") {
		t.Fatalf("no payer document: %v", err)
	}
	passed := dueRequest()
	passed.Due.Date = due.Today(time.Now()).AddDays(-1)
	if _, err := conn.CreateCharge(ctx, passed); !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), "due.date") {
		t.Fatalf("a due date passed: %v", err)
	}
	if n := p.sb.Stats().ChargesCreated; n != 0 {
		t.Fatalf("%d charges created", n)
	}
	plain := family.NewConnector(p.config())
	if plain.Capabilities().DueCharges {
		t.Fatal("a family provider without the extensions says it takes due-date charges")
	}
	if _, err := plain.CreateCharge(ctx, dueRequest()); !errors.Is(err, providerclient.ErrUnsupported) || p.requests("/v2/pix/qrcode") != 1 {
		t.Fatalf("a due-date charge to a provider without the extensions: %v, %d requests", err, p.requests("/v2/pix/qrcode"))
	}
}
