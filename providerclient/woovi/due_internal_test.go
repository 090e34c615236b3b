package woovi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Each term PixGate's form holds and Woovi too becomes Woovi's own, in its
// units (basis points, centavos) and in days from the day of creation to
// the day PixGate counts: a date that is not a business day counts from
// the next one, and the validity from the due date so counted. A rebate
// comes off the charge's value. Today is Monday 2 March 2026.
func TestDueTermsAsWooviHoldsThem(t *testing.T) {
	today := due.Date{Year: 2026, Month: time.March, Day: 2}
	day := func(n int) due.Date { return today.AddDays(n) }
	perDay := due.Value(15)
	for name, c := range map[string]struct {
		terms due.Terms
		want  string
	}{
		"fixed fine, dated discounts in any order, one on a Saturday": {
			terms: due.Terms{Date: day(10), DaysAfter: 15, Fine: &due.Fine{Mode: due.FineFixed, Value: 500},
				Interest: &due.Interest{Mode: due.InterestPercentPerDay, Value: 33},
				Discount: &due.Discount{Mode: due.DiscountPercentUntil, Dates: []due.DatedDiscount{
					{Until: day(9), Value: 100}, {Until: day(1), Value: 500}, {Until: day(5), Value: 500}}}},
			want: `{"correlationID":"","value":10000,"type":"OVERDUE","daysForDueDate":10,"daysAfterDueDate":15,` +
				`"interests":{"value":33,"type":"PERCENTAGE"},"fines":{"value":500,"type":"FIXED"},` +
				`"discountSettings":{"modality":"PERCENTAGE_UNTIL_SPECIFIED_DATE","discountFixedDate":[` +
				`{"daysActive":1,"value":500},{"daysActive":7,"value":500},{"daysActive":9,"value":100}]}}`,
		},
		"due on a Saturday, last day on a Sunday, percent fine, a discount per calendar day": {
			terms: due.Terms{Date: day(5), DaysAfter: 6, Fine: &due.Fine{Mode: due.FinePercent, Value: 200},
				Discount: &due.Discount{Mode: due.DiscountFixedPerDay, Value: &perDay, Days: due.CalendarDays}},
			want: `{"correlationID":"","value":10000,"type":"OVERDUE","daysForDueDate":7,"daysAfterDueDate":7,` +
				`"fines":{"value":200,"type":"PERCENTAGE"},"discountSettings":{"modality":"VALUE_PER_RUNNING_DAY_ADVANCE","value":15}}`,
		},
		"a fixed rebate": {
			terms: due.Terms{Date: day(3), DaysAfter: 1, Rebate: &due.Rebate{Mode: due.RebateFixed, Value: 1250}},
			want:  `{"correlationID":"","value":8750,"type":"OVERDUE","daysForDueDate":3,"daysAfterDueDate":1}`,
		},
		"a percent rebate, half up": {
			terms: due.Terms{Date: day(3), DaysAfter: 1, Rebate: &due.Rebate{Mode: due.RebatePercent, Value: 1005}},
			want:  `{"correlationID":"","value":8995,"type":"OVERDUE","daysForDueDate":3,"daysAfterDueDate":1}`,
		},
	} {
		in := wooviapi.ChargeRequest{Value: 10000}
		if err := dueTerms(&in, c.terms, today); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := json.Marshal(in); string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, c.want)
		}
	}
}

// A date on Ash Wednesday, a holiday in Woovi's calendar and not in
// PixGate's, is refused, as is one that only the move off a holiday
// brings to it (Carnival Monday and Tuesday, 16 and 17 February 2026).
func TestDueDatesOnAshWednesdayAreRefused(t *testing.T) {
	today := due.Date{Year: 2026, Month: time.February, Day: 2}
	ash := due.Date{Year: 2026, Month: time.February, Day: 18}
	for field, terms := range map[string]due.Terms{
		"due.date":                    {Date: ash, DaysAfter: 5},
		"due.days_after":              {Date: ash.AddDays(-7), DaysAfter: 5},
		"due.discount.dates[0].until": {Date: ash.AddDays(9), DaysAfter: 5, Discount: &due.Discount{Mode: due.DiscountFixedUntil, Dates: []due.DatedDiscount{{Until: ash.AddDays(-2), Value: 100}}}},
	} {
		err := dueTerms(&wooviapi.ChargeRequest{Value: 10000}, terms, today)
		if !errors.Is(err, providerclient.ErrUnsupported) || !strings.Contains(err.Error(), field+": ") || !strings.Contains(err.Error(), "Ash Wednesday") {
			t.Errorf("%s: %v", field, err)
		}
	}
}

// PixGate's calendar is due's: once due counts business days, the last
// day of a charge due on a business day is, for any validity, the day the
// connector counts.
func TestTheCalendarIsDues(t *testing.T) {
	friday := due.Date{Year: 2025, Month: time.March, Day: 14}
	for n := 1; n <= 1200; n++ {
		want, _ := countedDay(friday.AddDays(n))
		if got := (due.Terms{Date: friday, DaysAfter: n}).LastDay(); got != want {
			t.Fatalf("%d days after %s: due's last day %s, the connector's %s", n, friday, got, want)
		}
	}
}

// Near midnight in Brasília the day Woovi creates the charge on is not
// sure: the charge is not asked for, and nothing was done.
func TestNoDueChargeAtMidnight(t *testing.T) {
	brt := time.FixedZone("BRT", -3*60*60)
	today := due.Date{Year: 2026, Month: time.March, Day: 2}
	req := providerclient.ChargeRequest{Amount: 10000, Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"},
		Due: &due.Terms{Original: 10000, Date: today.AddDays(4)}}
	for at, wantErr := range map[time.Time]bool{
		time.Date(2026, time.March, 2, 23, 59, 30, 0, brt): true,
		time.Date(2026, time.March, 3, 0, 0, 30, 0, brt):   true,
		time.Date(2026, time.March, 2, 23, 58, 0, 0, brt):  false,
		time.Date(2026, time.March, 2, 12, 0, 0, 0, brt):   false,
	} {
		var in wooviapi.ChargeRequest
		err := dueCharge(&in, req, at)
		if wantErr != errors.Is(err, providerclient.ErrUnavailable) || !wantErr && (err != nil || in.DaysForDueDate != 4 || in.Value != 10000 ||
			in.DaysAfterDueDate != 31) { // 30 days after Friday 6 March is a Sunday
			t.Errorf("at %v: %v, %+v", at, err, in)
		}
	}
}
