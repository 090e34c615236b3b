package woovi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

// A charge's provider id (PixGate's pix_id) has 32 characters, as every
// other connector's: PixGate's id without hyphens, as the correlationID.
// Once paid, its read names the PIX that paid it: the end-to-end id and
// who paid (the transaction list's PAYMENT of the charge), so consult
// and the postback show them as they do for the family.
func TestPaidChargeIsAnsweredAsByEveryConnector(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req := providerclient.ChargeRequest{ID: newID(), Amount: money.FromReais(25, 0), Expiration: time.Hour,
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}}
	ch, err := e.conn.CreateCharge(ctx, req)
	if want := strings.ReplaceAll(req.ID, "-", ""); err != nil || ch.ProviderID != want || len(ch.ProviderID) != 32 {
		t.Fatalf("charge: %+v, %v; want the provider id %s (32 characters)", ch, err, want)
	}
	if got, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID}); err != nil || got.ProviderID != ch.ProviderID ||
		got.ExternalID != ch.ProviderID {
		t.Fatalf("read by PixGate's id: %+v, %v", got, err)
	}
	if _, err := e.sb.PayCharge(ch.ProviderID, sandbox.Payer{Name: "Beltrano da Silva", Document: "123.456.789-09"}); err != nil {
		t.Fatal(err)
	}
	body, h := e.webhook(0)
	evs, err := e.conn.ParseNotification(h, body)
	if err != nil || len(evs) != 1 || evs[0].ProviderID != ch.ProviderID || evs[0].ID != ch.ProviderID {
		t.Fatalf("charge webhook: %+v, %v", evs, err)
	}
	paid, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: req.ID, ProviderID: ch.ProviderID})
	if err != nil || paid.Status != providerclient.StatusPaid || !e.conn.Capabilities().PayerDocument {
		t.Fatalf("paid charge: %+v, %v; capabilities %+v", paid, err, e.conn.Capabilities())
	}
	held := e.sb.Transactions("RECEIVEPIX")
	if len(held) != 1 || paid.EndToEndID != held[0].EndToEndID || len(paid.EndToEndID) != 32 {
		t.Fatalf("the paid charge's end-to-end id %q; the sandbox paid it with %+v", paid.EndToEndID, held)
	}
	if p := paid.Payer; p == nil || p.Name != "Beltrano da Silva" || p.Document != "12345678909" {
		t.Fatalf("the paid charge's payer: %+v", p)
	}
	if a := paid.PayerAccount; a == nil || a.Name != "Beltrano da Silva" || a.Document != "12345678909" {
		t.Fatalf("the account the PIX came from: %+v", a)
	}
}

// A charge made before the correlationID lost its hyphens keeps the id it
// was made under: read by that stored id, by PixGate's id alone (a create
// of then whose answer was lost), notified and refunded under it.
func TestChargeOfTheHyphenatedFormStillFound(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	id := newID()
	b, _ := json.Marshal(wooviapi.ChargeRequest{CorrelationID: id, Value: 2500, ExpiresIn: 3600})
	hr, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.srv.URL+wooviapi.PathCharge, bytes.NewReader(b))
	hr.Header.Set("Authorization", "app-id")
	hr.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(hr)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a charge made as before: %v %v", res, err)
	}
	res.Body.Close()
	for _, ref := range []providerclient.Ref{{Kind: providerclient.KindCharge, ID: id, ProviderID: id}, {Kind: providerclient.KindCharge, ID: id}} {
		if got, err := e.conn.Read(ctx, ref); err != nil || got.ProviderID != id || got.ExternalID != id || got.Status != providerclient.StatusPending {
			t.Fatalf("read %+v: %+v, %v", ref, got, err)
		}
	}
	if _, err := e.sb.PayCharge(id, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	body, h := e.webhook(0)
	if evs, err := e.conn.ParseNotification(h, body); err != nil || len(evs) != 1 || evs[0].ProviderID != id || evs[0].ID != id {
		t.Fatalf("its webhook: %+v, %v", evs, err)
	}
	paid, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: id, ProviderID: id})
	if err != nil || paid.Status != providerclient.StatusPaid || len(paid.EndToEndID) != 32 || paid.PayerAccount == nil {
		t.Fatalf("paid: %+v, %v", paid, err)
	}
	rf, err := e.conn.Refund(ctx, providerclient.RefundRequest{ID: newID(), Amount: money.FromReais(5, 0), Charge: providerclient.Ref{ProviderID: id}})
	if err != nil || rf.Status != providerclient.StatusProcessing {
		t.Fatalf("its refund: %+v, %v", rf, err)
	}
	// An id Woovi holds in neither form is still proved absent.
	if _, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: newID()}); !errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("an unknown charge: %v", err)
	}
}
