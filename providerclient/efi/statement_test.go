package efi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// A day's statement read from the lists, every request and answer of the
// BCB's routes checked against its specification: the PIX received, the
// refund settled and the PIX sent, each once, by PixGate's ids.
func TestStatement(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	chargeID := newID()
	if _, err := e.conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: chargeID, Amount: money.FromReais(25, 0),
		Payer: providerclient.Party{Name: "Fulano de Tal", Document: "52998224725"}}); err != nil {
		t.Fatal(err)
	}
	txid := strings.ReplaceAll(chargeID, "-", "")
	paid, err := e.sb.PayCharge(txid, sandbox.Payer{})
	if err != nil {
		t.Fatal(err)
	}
	refundID, payoutID := newID(), newID()
	if _, err := e.conn.Refund(ctx, providerclient.RefundRequest{ID: refundID, Amount: money.FromReais(10, 0),
		Charge: providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: txid, EndToEndID: paid.EndToEndID}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.conn.SendPix(ctx, providerclient.PayoutRequest{ID: payoutID, Amount: money.FromReais(7, 50),
		Recipient: providerclient.Recipient{Name: "Beltrano", KeyType: "EMAIL", Key: "beltrano@example.com", TaxID: "52998224725"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the refund and the send to settle", func() bool { return len(e.hook.bodies()) == 3 })

	got := map[providerclient.Kind]providerclient.StatementLine{}
	req := providerclient.StatementRequest{Day: providerclient.DayOf(time.Now())}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("the statement does not end")
		}
		p, err := e.conn.Statement(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if p.Balances != nil {
			t.Fatalf("balances %+v: the lists carry none", p.Balances)
		}
		for _, l := range p.Lines {
			if _, twice := got[l.Kind]; twice {
				t.Fatalf("%s listed twice", l.Kind)
			}
			got[l.Kind] = l
		}
		if req.Cursor = p.Next; req.Cursor == "" {
			break
		}
	}
	want := map[providerclient.Kind]struct {
		id     string
		amount money.Money
		dir    providerclient.Direction
	}{
		providerclient.KindCharge: {txid, money.FromReais(25, 0), providerclient.In},
		providerclient.KindRefund: {strings.ReplaceAll(refundID, "-", ""), money.FromReais(10, 0), providerclient.Out},
		providerclient.KindPayout: {strings.ReplaceAll(payoutID, "-", ""), money.FromReais(7, 50), providerclient.Out},
	}
	if len(got) != len(want) {
		t.Fatalf("lines %+v, want %d", got, len(want))
	}
	for k, w := range want {
		l := got[k]
		if l.ExternalID != w.id || l.Amount != w.amount || l.Direction != w.dir || l.EndToEndID == "" || l.SettledAt.IsZero() {
			t.Errorf("%s line %+v, want id %s amount %s", k, l, w.id, w.amount)
		}
	}
	// Yesterday has nothing.
	p, err := e.conn.Statement(ctx, providerclient.StatementRequest{Day: providerclient.DayOf(time.Now()).AddDays(-1)})
	if err != nil || len(p.Lines) != 0 {
		t.Fatalf("yesterday: %+v, %v", p, err)
	}
}
