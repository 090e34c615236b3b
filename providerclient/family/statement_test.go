package family_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// The statement extension: the day's settled transactions as the
// statement shows them, injected discrepancies included, and balances
// that add up from the account's opening balance.
func TestStatement(t *testing.T) {
	p := newProvider(t, sandbox.Config{})
	cfg := p.config()
	cfg.Extensions = true
	conn := family.NewConnector(cfg)
	ctx := t.Context()

	pay := func(reais int64) string {
		ch, err := conn.CreateCharge(ctx, providerclient.ChargeRequest{ID: "chg-" + time.Now().Format("150405.000000000"),
			Amount: money.FromReais(reais, 0), Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.sb.PayCharge(ch.ProviderID, sandbox.Payer{}); err != nil {
			t.Fatal(err)
		}
		return ch.ProviderID
	}
	a, b, c, d := pay(10), pay(20), pay(30), pay(40)
	po, err := conn.SendPix(ctx, payout("pay-1"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the payout to settle", func() bool {
		tx, _ := p.sb.Transaction(po.ProviderID)
		return tx.Status == "COMPLETED"
	})
	unknown, err := p.sb.InjectUnknownPix(money.FromReais(5, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, alt := range []struct {
		id, kind string
		amount   money.Money
	}{{b, sandbox.DiscrepancyAmount, money.FromReais(21, 0)}, {c, sandbox.DiscrepancyDropped, 0}, {d, sandbox.DiscrepancyDuplicate, 0}} {
		if _, err := p.sb.AlterStatement(alt.id, alt.kind, alt.amount); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.sb.AlterStatement("nope", sandbox.DiscrepancyDropped, 0); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("altering an unknown transaction: %v", err)
	}

	today := providerclient.DayOf(time.Now())
	page, err := conn.Statement(ctx, providerclient.StatementRequest{Day: today})
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string][]money.Money{}
	var net money.Money
	for _, l := range page.Lines {
		shown[l.ProviderID] = append(shown[l.ProviderID], l.Amount)
		net += l.Amount * money.Money(l.Direction)
	}
	want := map[string][]money.Money{
		a: {money.FromReais(10, 0)}, b: {money.FromReais(21, 0)}, d: {money.FromReais(40, 0), money.FromReais(40, 0)},
		po.ProviderID: {money.FromReais(25, 10)}, unknown.TransactionID: {money.FromReais(5, 0)},
	}
	if len(shown) != len(want) {
		t.Fatalf("lines %v, want %v", shown, want)
	}
	for id, amounts := range want {
		if got := shown[id]; len(got) != len(amounts) || got[0] != amounts[0] {
			t.Errorf("%s shown as %v, want %v", id, got, amounts)
		}
	}
	if page.Next != "" || page.Balances == nil || page.Balances.Opening != sandbox.DefaultInitialBalance ||
		page.Balances.Closing != page.Balances.Opening+net {
		t.Fatalf("balances %+v (net %s), next %q", page.Balances, net, page.Next)
	}

	// Pages: two lines a page; tomorrow opens with today's close.
	st := p.sb.Statement(today, 2, 2)
	if st.Pages != 3 || st.Total != 6 || len(st.Lines) != 2 {
		t.Fatalf("page 2 of 2 lines: %+v", st)
	}
	if next := p.sb.Statement(today.AddDays(1), 1, 10); next.OpeningBalance != page.Balances.Closing || len(next.Lines) != 0 {
		t.Fatalf("tomorrow: %+v", next)
	}

	// Without the extensions, the family has no statement.
	if _, err := family.NewConnector(p.config()).Statement(ctx, providerclient.StatementRequest{Day: today}); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("statement without extensions: %v", err)
	}
}
