package efi_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueTerms are the terms of a due-date charge of R$ 150.00 due tomorrow in
// Brasília, payable 5 days after, with a fine and interest when late.
func dueTerms() *due.Terms {
	return &due.Terms{Original: money.FromReais(150, 0), Date: due.Today(time.Now()).AddDays(1), DaysAfter: 5,
		Fine:     &due.Fine{Mode: due.FinePercent, Value: 200},
		Interest: &due.Interest{Mode: due.InterestPercentPerMonth, Value: 100}}
}

// noon is midday of day in Brasília: a payment on that day.
func noon(day due.Date) time.Time { return day.End().Add(-12 * time.Hour) }

func dueRequest(terms *due.Terms) providerclient.ChargeRequest {
	return providerclient.ChargeRequest{ID: newID(), Amount: terms.Original, PayerQuestion: "boleto 7",
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}, Due: terms}
}

// A due-date charge through the efi contract: created (PUT /v2/cobv), read
// back pending, paid on its due date, notified, and read back paid with
// the amount of that day and who paid it; every request and answer
// checked against the BCB's specification.
func TestDueCharge(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	terms := dueTerms()
	req := dueRequest(terms)
	if !e.conn.Capabilities().DueCharges {
		t.Fatal("the efi connector does not say it takes due-date charges")
	}
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(req.ID, "-", "")
	if ch.ProviderID != txid || ch.Status != providerclient.StatusPending || !ch.ExpiresAt.Equal(terms.LastDay().End()) {
		t.Fatalf("charge: %+v; want expiry %v", ch, terms.LastDay().End())
	}
	code, err := brcodetest.Parse(ch.BRCode)
	if err != nil || code.Amount != 0 || !strings.Contains(code.Location, "/cobv/") {
		t.Fatalf("BR Code %+v, %v: a due-date charge's code names a cobv location and no amount", code, err)
	}
	if again, err := e.conn.CreateCharge(ctx, req); err != nil || again.ProviderID != txid || again.BRCode != ch.BRCode {
		t.Fatalf("repeated charge: %+v, %v", again, err)
	}
	if n := e.sb.Stats().ChargesCreated; n != 1 {
		t.Fatalf("%d charges created, want 1", n)
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID, ProviderID: txid, Due: true}
	pending, err := e.conn.Read(ctx, ref)
	if err != nil || pending.Status != providerclient.StatusPending || pending.Amount != terms.Original || pending.Payer != nil {
		t.Fatalf("pending: %+v, %v", pending, err)
	}

	// Paid on its due date (no rebate, no discount): the original amount.
	at := noon(terms.Date)
	want, err := terms.AmountOn(terms.Date)
	if err != nil || want.Total != terms.Original {
		t.Fatalf("the due date asks %+v, %v; want the original", want, err)
	}
	if _, err := e.sb.PayChargeAt(txid, sandbox.Payer{Name: "Outra", Document: "111.444.777-35"}, at); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the charge's webhook", func() bool { return len(e.hook.bodies()) == 1 })
	evs, err := e.conn.ParseNotification(nil, e.hook.bodies()[0])
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindCharge || evs[0].ProviderID != txid || evs[0].Status != providerclient.StatusPaid {
		t.Fatalf("notification: %+v, %v", evs, err)
	}
	paid, err := e.conn.Read(ctx, ref)
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != want.Total || len(paid.EndToEndID) != 32 ||
		!paid.SettledAt.Equal(at.Truncate(time.Millisecond)) {
		t.Fatalf("paid: %+v, %v; want %s settled at %v", paid, err, want.Total, at)
	}
	if p := paid.Payer; p == nil || p.Name != "Outra" || p.Document != "11144477735" {
		t.Fatalf("who paid: %+v", p)
	}
	for _, route := range []string{"PUT /cobv/{txid}", "GET /cobv/{txid}", "GET /cobv"} {
		if e.v.Checked()[route] == 0 {
			t.Errorf("no request to %s was checked against the specification (checked: %v)", route, e.v.Checked())
		}
	}
	// Asked again once paid, the provider refuses to change it and the
	// connector reads it back: still the one.
	if again, err := e.conn.CreateCharge(ctx, req); err != nil || again.ProviderID != txid || again.Status != providerclient.StatusPaid {
		t.Fatalf("charge asked again once paid: %+v, %v", again, err)
	}
}

// Paid late, a due-date charge asks the day's amount, fine and interest
// included, and the paid charge read back says so; a day past its validity
// is refused.
func TestDueChargePaidLate(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	terms := dueTerms()
	req := dueRequest(terms)
	if _, err := e.conn.CreateCharge(ctx, req); err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(req.ID, "-", "")
	day := terms.Date.AddDays(2)
	want, wantErr := terms.AmountOn(day)
	_, err := e.sb.PayChargeAt(txid, sandbox.Payer{}, noon(day))
	if terms.LastDay().Before(day) || wantErr != nil {
		if !errors.Is(err, sandbox.ErrConflict) {
			t.Fatalf("paid on %s, past the last day %s: %v, want a refusal", day, terms.LastDay(), err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	paid, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: txid, Due: true})
	if err != nil || paid.Status != providerclient.StatusPaid || paid.Amount != want.Total {
		t.Fatalf("paid late: %+v, %v; want %s", paid, err, want.Total)
	}
}

// A due-date charge names its payer (the BCB requires its devedor): one
// without a document is refused before anything is sent, naming the
// field, and so are terms the BCB has no modalidade for.
func TestDueChargeRefusals(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	noDoc := dueRequest(dueTerms())
	noDoc.Payer.Document = ""
	oddFine := dueRequest(dueTerms())
	oddFine.Due.Fine.Mode = "per_hour"
	for name, c := range map[string]struct {
		req   providerclient.ChargeRequest
		field string
	}{
		"no payer document": {noDoc, "payer.document"},
		"an unknown fine":   {oddFine, "due.fine.mode"},
	} {
		_, err := e.conn.CreateCharge(ctx, c.req)
		if !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v, want a refusal naming %s", name, err, c.field)
		}
	}
	if n := e.v.Checked()["PUT /cobv/{txid}"]; n != 0 || e.sb.Stats().ChargesCreated != 0 {
		t.Fatalf("%d due-date charges sent, %d created; want none", n, e.sb.Stats().ChargesCreated)
	}
	// A due-date charge Efí does not hold is proved absent by its own
	// answer (CobVNaoEncontrada).
	if _, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: newID(), Due: true}); !errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("a due-date charge Efí does not hold: %v, want proved absent", err)
	}
}
