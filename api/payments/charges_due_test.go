package payments

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueProvider is a fakeProvider that takes due-date charges.
type dueProvider struct{ fakeProvider }

func (*dueProvider) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{DueCharges: true}
}

func dueRequest(amount money.Money, date string, daysAfter int) ChargeRequest {
	r := chargeRequest(amount)
	d, _ := due.ParseDate(date)
	r.Due = &due.Terms{Date: d, DaysAfter: daysAfter}
	return r
}

// A due-date charge is asked of the provider with its terms (original =
// the amount, no expiration) and kept with the integrator's cash-in fee
// rule, which will price what is paid.
func TestDueChargeAskedWithItsTerms(t *testing.T) {
	store, prov := newFakeStore(), &dueProvider{}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	s := New(Config{Now: func() time.Time { return now }}, store, prov, nil)
	in := integrator(money.Percent(15_000), money.Fixed(0))
	ch, _, err := s.CreateCharge(context.Background(), in, dueRequest(10000, "2026-12-10", 30))
	if err != nil {
		t.Fatal(err)
	}
	if len(prov.calls) != 1 || prov.calls[0].Due == nil || prov.calls[0].Due.Original != 10000 || prov.calls[0].Expiration != 0 {
		t.Fatalf("provider asked %+v", prov.calls)
	}
	if ch.Due == nil || ch.Due.Fee != in.CashIn || ch.Due.Terms.Original != 10000 || ch.Fee != 150 {
		t.Fatalf("charge kept %+v, fee %s", ch.Due, ch.Fee)
	}
}

// Refused before anything is written: a charge whose last payable day has
// passed, one with no payer name, one whose least amount does not exceed
// the fee on it, and one no provider of the route takes.
func TestDueChargeRules(t *testing.T) {
	now := time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC) // still 30 November in Brasília
	for _, tt := range []struct {
		name  string
		req   func() ChargeRequest
		prov  Provider
		rule  error
		field string
	}{
		{"last day passed", func() ChargeRequest { return dueRequest(10000, "2026-11-10", 9) }, &dueProvider{}, ErrDuePassed, "due.date"},
		{"no payer name", func() ChargeRequest {
			r := dueRequest(10000, "2026-12-10", 0)
			r.Payer.Name = ""
			return r
		}, &dueProvider{}, ErrDueNeedsPayer, "payer.name"},
		{"no provider takes them", func() ChargeRequest { return dueRequest(10000, "2026-12-10", 0) }, &fakeProvider{}, ErrDueUnsupported, "due"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			store := newFakeStore()
			s := New(Config{Now: func() time.Time { return now }}, store, tt.prov, nil)
			_, _, err := s.CreateCharge(context.Background(), integrator(money.Fixed(100), money.Fixed(0)), tt.req())
			var re *RuleError
			if !errors.As(err, &re) || !errors.Is(err, tt.rule) || re.Field != tt.field {
				t.Fatalf("err = %v, want %v naming %s", err, tt.rule, tt.field)
			}
			if store.writes != 0 {
				t.Fatalf("%d writes", store.writes)
			}
		})
	}
	// The last day is today in Brasília (30 November): still taken.
	s := New(Config{Now: func() time.Time { return now }}, newFakeStore(), &dueProvider{}, nil)
	if _, _, err := s.CreateCharge(context.Background(), integrator(money.Fixed(100), money.Fixed(0)), dueRequest(10000, "2026-11-10", 20)); err != nil {
		t.Fatalf("payable today: %v", err)
	}
	// The least a rebate leaves must exceed the fee on it.
	r := dueRequest(10000, "2026-12-10", 0)
	r.Due.Rebate = &due.Rebate{Mode: due.RebateFixed, Value: 9900}
	_, _, err := s.CreateCharge(context.Background(), integrator(money.Fixed(100), money.Fixed(0)), r)
	if !errors.Is(err, ErrAmountNotAboveFee) || !strings.Contains(err.Error(), "rebate") {
		t.Fatalf("a rebate leaving R$ 1.00 against a R$ 1.00 fee: %v", err)
	}
}
