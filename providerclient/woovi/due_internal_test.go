package woovi

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Each term PixGate's form holds and Woovi too becomes Woovi's own, in its
// units (basis points, centavos) and its days from the day of creation.
func TestDueTermsAsWooviHoldsThem(t *testing.T) {
	today := due.Date{Year: 2026, Month: time.March, Day: 2}
	perDay := due.Value(15)
	for name, c := range map[string]struct {
		terms due.Terms
		want  string
	}{
		"fixed fine, dated discounts in any order": {
			terms: due.Terms{Date: today.AddDays(10), DaysAfter: 15, Fine: &due.Fine{Mode: due.FineFixed, Value: 500},
				Interest: &due.Interest{Mode: due.InterestPercentPerDay, Value: 33},
				Discount: &due.Discount{Mode: due.DiscountPercentUntil, Dates: []due.DatedDiscount{
					{Until: today.AddDays(9), Value: 100}, {Until: today.AddDays(1), Value: 500}, {Until: today.AddDays(5), Value: 500}}}},
			want: `{"correlationID":"","value":0,"type":"OVERDUE","daysForDueDate":10,"daysAfterDueDate":15,` +
				`"interests":{"value":33,"type":"PERCENTAGE"},"fines":{"value":500,"type":"FIXED"},` +
				`"discountSettings":{"modality":"PERCENTAGE_UNTIL_SPECIFIED_DATE","discountFixedDate":[` +
				`{"daysActive":1,"value":500},{"daysActive":5,"value":500},{"daysActive":9,"value":100}]}}`,
		},
		"percent fine, a discount per calendar day": {
			terms: due.Terms{Date: today.AddDays(1), DaysAfter: 1, Fine: &due.Fine{Mode: due.FinePercent, Value: 200},
				Discount: &due.Discount{Mode: due.DiscountFixedPerDay, Value: &perDay, Days: due.CalendarDays}},
			want: `{"correlationID":"","value":0,"type":"OVERDUE","daysForDueDate":1,"daysAfterDueDate":1,` +
				`"fines":{"value":200,"type":"PERCENTAGE"},"discountSettings":{"modality":"VALUE_PER_RUNNING_DAY_ADVANCE","value":15}}`,
		},
	} {
		var in wooviapi.ChargeRequest
		if err := dueTerms(&in, c.terms, today); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := json.Marshal(in); string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, c.want)
		}
	}
}

// Near midnight in Brasília the day Woovi creates the charge on is not
// sure: the charge is not asked for, and nothing was done.
func TestNoDueChargeAtMidnight(t *testing.T) {
	brt := time.FixedZone("BRT", -3*60*60)
	today := due.Date{Year: 2026, Month: time.March, Day: 2}
	req := providerclient.ChargeRequest{Amount: 10000, Payer: providerclient.Party{Name: "Fulano", Document: "52998224725"},
		Due: &due.Terms{Original: 10000, Date: today.AddDays(5)}}
	for at, wantErr := range map[time.Time]bool{
		time.Date(2026, time.March, 2, 23, 59, 30, 0, brt): true,
		time.Date(2026, time.March, 3, 0, 0, 30, 0, brt):   true,
		time.Date(2026, time.March, 2, 23, 58, 0, 0, brt):  false,
		time.Date(2026, time.March, 2, 12, 0, 0, 0, brt):   false,
	} {
		var in wooviapi.ChargeRequest
		err := dueCharge(&in, req, at)
		if wantErr != errors.Is(err, providerclient.ErrUnavailable) || !wantErr && (err != nil || in.DaysForDueDate != 5 || in.Value != 10000 ||
			in.DaysAfterDueDate != due.DefaultDaysAfter) {
			t.Errorf("at %v: %v, %+v", at, err, in)
		}
	}
}
