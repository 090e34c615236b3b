package sandbox

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Woovi's OVERDUE body becomes terms that ask, day by day, what Woovi
// asks: tiers reaching the due date end the day before it, and a later
// tier never gives more than an earlier one still active.
func TestWooviDueTerms(t *testing.T) {
	today := due.Date{Year: 2026, Month: time.March, Day: 2}
	customer := &wooviapi.Customer{Name: "Fulano", TaxID: "52998224725"}
	req := wooviapi.ChargeRequest{Type: wooviapi.ChargeOverdue, DaysForDueDate: 10, Customer: customer,
		Fines: &wooviapi.Rate{Value: 200}, Interests: &wooviapi.Rate{Value: 10, Type: wooviapi.RatePercentage},
		DiscountSettings: &wooviapi.DiscountSettings{Modality: wooviapi.DiscountFixedUntil, DiscountFixedDate: []wooviapi.DiscountFixedDate{
			{DaysActive: 3, Value: 50}, {DaysActive: 6, Value: 80}, {DaysActive: 12, Value: 30}, {DaysActive: 15, Value: 20}}}}
	got, msg := wooviDue(req, 10000, today)
	want := &due.Terms{Original: 10000, Date: today.AddDays(10), DaysAfter: due.DefaultDaysAfter,
		Fine:     &due.Fine{Mode: due.FinePercent, Value: 200},
		Interest: &due.Interest{Mode: due.InterestPercentPerDay, Value: 10, Days: due.CalendarDays},
		Discount: &due.Discount{Mode: due.DiscountFixedUntil, Dates: []due.DatedDiscount{
			{Until: today.AddDays(6), Value: 80}, {Until: today.AddDays(9), Value: 30}}}}
	if msg != "" || !reflect.DeepEqual(got, want) {
		t.Fatalf("terms %+v (%q)\nwant %+v", got, msg, want)
	}

	for name, c := range map[string]struct {
		change  func(*wooviapi.ChargeRequest)
		refusal string
	}{
		"a DYNAMIC charge has no terms":    {func(r *wooviapi.ChargeRequest) { r.Type = wooviapi.ChargeDynamic }, ""},
		"a BOLETO":                         {func(r *wooviapi.ChargeRequest) { r.Type = "BOLETO" }, "type"},
		"no customer's taxID":              {func(r *wooviapi.ChargeRequest) { r.Customer = &wooviapi.Customer{Name: "Fulano"} }, "customer"},
		"no due date":                      {func(r *wooviapi.ChargeRequest) { r.DaysForDueDate = 0 }, "daysForDueDate"},
		"interests of type FIXED":          {func(r *wooviapi.ChargeRequest) { r.Interests.Type = wooviapi.RateFixed }, "FIXED"},
		"a fine of an unknown type":        {func(r *wooviapi.ChargeRequest) { r.Fines.Type = "DAILY" }, "fines.type"},
		"a discount per business day":      {func(r *wooviapi.ChargeRequest) { r.DiscountSettings.Modality = wooviapi.DiscountValuePerBusinessDay }, "business days"},
		"a discount per day without value": {func(r *wooviapi.ChargeRequest) { r.DiscountSettings.Modality = wooviapi.DiscountValuePerRunningDay }, "value"},
		"a tier of daysActive 0":           {func(r *wooviapi.ChargeRequest) { r.DiscountSettings.DiscountFixedDate[0].DaysActive = 0 }, "daysActive"},
	} {
		r := req
		f, i, d := *req.Fines, *req.Interests, *req.DiscountSettings
		d.DiscountFixedDate = append([]wooviapi.DiscountFixedDate(nil), d.DiscountFixedDate...)
		r.Fines, r.Interests, r.DiscountSettings = &f, &i, &d
		c.change(&r)
		got, msg := wooviDue(r, 10000, today)
		if (c.refusal == "") != (msg == "") || !strings.Contains(msg, c.refusal) || c.refusal == "" && got != nil {
			t.Errorf("%s: %+v, %q; want a refusal about %q", name, got, msg, c.refusal)
		}
	}
}

// An OVERDUE charge is answered as Woovi's: its type, its due date, and
// the value it was made with, paid or not.
func TestWooviChargeOfADueDateCharge(t *testing.T) {
	s := New(Config{Contract: ContractWoovi, ClientID: "app-id"})
	defer s.Close()
	f := wooviFace{s}
	now := time.Date(2026, time.March, 2, 12, 0, 0, 0, time.UTC)
	terms := &due.Terms{Original: 10000, Date: due.Today(now).AddDays(3), DaysAfter: 5}
	rec, created, err := s.createCharge(chargeSpec{id: "c1", externalID: "c1", amount: 10000, due: terms}, now)
	if err != nil || !created {
		t.Fatal(created, err)
	}
	rec.amount = 10350 // as paid on a day late
	c := f.chargeOf(rec, now)
	if c.Type != wooviapi.ChargeOverdue || c.DueDate != "2026-03-05T03:00:00.000Z" || c.Value != 10000 {
		t.Fatalf("charge %+v", c)
	}
}
