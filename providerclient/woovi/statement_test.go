package woovi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
)

// A day's statement paged from the transaction list, checked against
// Woovi's document: the charge paid by its correlationID, the refund and
// the PIX sent by their end-to-end ids, each once.
func TestStatement(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req := providerclient.ChargeRequest{ID: newID(), Amount: money.FromReais(25, 0),
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}}
	ch, err := e.conn.CreateCharge(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	rreq := providerclient.RefundRequest{ID: newID(), Amount: money.FromReais(10, 0), Charge: providerclient.Ref{ProviderID: ch.ProviderID}}
	if _, err := e.conn.Refund(ctx, rreq); err != nil {
		t.Fatal(err)
	}
	preq := providerclient.PayoutRequest{ID: newID(), Amount: money.FromReais(7, 50),
		Recipient: providerclient.Recipient{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e89b-12d3-a456-426614174000", TaxID: "52998224725"}}
	if _, err := e.conn.SendPix(ctx, preq); err != nil {
		t.Fatal(err)
	}
	e.webhook(2) // the refund and the send settled

	got := map[providerclient.Kind]providerclient.StatementLine{}
	sreq := providerclient.StatementRequest{Day: providerclient.DayOf(time.Now())}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("the statement does not end")
		}
		p, err := e.conn.Statement(ctx, sreq)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.Lines {
			if _, twice := got[l.Kind]; twice {
				t.Fatalf("%s listed twice", l.Kind)
			}
			got[l.Kind] = l
		}
		if sreq.Cursor = p.Next; sreq.Cursor == "" {
			break
		}
	}
	refund, _ := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindRefund, ProviderID: rreq.ID})
	sent, _ := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindPayout, ProviderID: preq.ID})
	if l := got[providerclient.KindCharge]; l.ExternalID != ch.ProviderID || l.ProviderID != ch.ProviderID || l.Amount != req.Amount || l.Direction != providerclient.In {
		t.Errorf("charge line %+v", l)
	}
	if l := got[providerclient.KindRefund]; refund == nil || l.EndToEndID != refund.EndToEndID || l.Amount != rreq.Amount || l.Direction != providerclient.Out {
		t.Errorf("refund line %+v, refund %+v", l, refund)
	}
	if l := got[providerclient.KindPayout]; sent == nil || l.EndToEndID != sent.EndToEndID || l.Amount != preq.Amount || l.Direction != providerclient.Out {
		t.Errorf("payout line %+v, sent %+v", l, sent)
	}
	if len(got) != 3 {
		t.Errorf("%d kinds of lines, want 3: %+v", len(got), got)
	}
	n := 0
	for k, c := range e.v.Checked() {
		if strings.HasSuffix(k, " "+wooviapi.PathTransactions) {
			n += c
		}
	}
	if n == 0 {
		t.Error("no request to the transaction list was checked against Woovi's document")
	}
}
