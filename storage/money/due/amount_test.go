package due

import (
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func TestNormalize(t *testing.T) {
	v := Value(100)
	terms := Terms{Date: Date{2025, 3, 14},
		Interest: &Interest{Mode: InterestFixedPerDay, Value: 10},
		Discount: &Discount{Mode: DiscountFixedPerDay, Value: &v}}
	terms.Normalize()
	if terms.DaysAfter != DefaultDaysAfter || terms.Interest.Days != CalendarDays || terms.Discount.Days != CalendarDays {
		t.Errorf("%+v %+v %+v", terms, *terms.Interest, *terms.Discount)
	}
	dated := Terms{Date: Date{2025, 3, 14}, DaysAfter: 5, Interest: &Interest{Mode: InterestFixedPerDay, Value: 10, Days: BusinessDays},
		Discount: &Discount{Mode: DiscountFixedUntil, Dates: []DatedDiscount{{Until: Date{2025, 3, 10}, Value: 100}}}}
	dated.Normalize()
	if dated.DaysAfter != 5 || dated.Interest.Days != BusinessDays || dated.Discount.Days != "" {
		t.Errorf("%+v %+v %+v", dated, *dated.Interest, *dated.Discount)
	}
}

// The BCB's examples of validadeAposVencimento (API Pix 2.9.0,
// CobDataDeVencimento), but B, whose 0 PixGate's terms read as the default.
func TestLastDayFollowsTheBCBExamples(t *testing.T) {
	for _, c := range []struct {
		example, date string
		daysAfter     int
		last          string
	}{
		{"A", "2020-10-20", 4, "2020-10-26"},
		{"C", "2020-12-25", 1, "2020-12-29"},
		{"D", "2020-12-25", 3, "2020-12-31"},
		{"E", "2020-12-25", 4, "2021-01-04"},
		{"F", "2021-08-27", 5, "2021-09-01"},
		{"G", "2021-08-28", 5, "2021-09-06"},
	} {
		terms := Terms{Original: 1000, Date: mustDate(t, c.date), DaysAfter: c.daysAfter}
		last := mustDate(t, c.last)
		if got := terms.LastDay(); got != last {
			t.Errorf("example %s: LastDay() = %s, want %s", c.example, got, last)
		}
		if _, err := terms.AmountOn(last); err != nil {
			t.Errorf("example %s: AmountOn(%s): %v", c.example, last, err)
		}
		if _, err := terms.AmountOn(last.AddDays(1)); !errors.Is(err, ErrPastValidity) {
			t.Errorf("example %s: AmountOn(%s) = %v, want ErrPastValidity", c.example, last.AddDays(1), err)
		}
	}
	if got := (Terms{Date: Date{2025, 3, 14}}).LastDay(); got != (Date{2025, 4, 14}) {
		t.Errorf("DaysAfter 0 is the default, 30 days: LastDay() = %s", got)
	}
}

func TestMinimum(t *testing.T) {
	atToday(t, "2025-03-01")
	for _, c := range []struct {
		original, body string
		want           money.Money
	}{
		{"100.00", `{"date":"2025-03-14"}`, 10000},
		{"100.00", `{"date":"2025-03-14","fine":{"mode":"fixed","value":2},"interest":{"mode":"fixed_per_day","value":1}}`, 10000},
		{"100.00", `{"date":"2025-03-14","rebate":{"mode":"percent","value":10}}`, 9000},
		{"100.00", `{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":0.50}}`, 9350},                   // 13 days from today
		{"100.00", `{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":0.50,"days":"business"}}`, 9600}, // 8 business days
		// The later, larger discount is the least asked.
		{"100.00", `{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-05","value":5},{"until":"2025-03-10","value":8}]}}`, 9200},
		// A dated discount already past does not count.
		{"100.00", `{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-02-20","value":50},{"until":"2025-03-10","value":8}]}}`, 9200},
		// Two dates moved to the same business day: the first holds.
		{"100.00", `{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-08","value":5},{"until":"2025-03-10","value":8}]}}`, 9500},
		// Terms Validate refuses still ask the floor.
		{"100.00", `{"date":"2025-03-14","rebate":{"mode":"fixed","value":150}}`, floor},
	} {
		terms := requestTerms(t, c.original, c.body)
		if got := terms.Minimum(testDay); got != c.want {
			t.Errorf("%s: Minimum() = %s, want %s", c.body, got, c.want)
		}
	}
}

func TestMinimumOnceLate(t *testing.T) {
	atToday(t, "2025-03-20")
	terms := requestTerms(t, "100.00", `{"date":"2025-03-14","rebate":{"mode":"fixed","value":5},"discount":{"mode":"fixed_per_day","value":1},"fine":{"mode":"fixed","value":2}}`)
	if got := terms.Minimum(testDay); got != 9500 {
		t.Errorf("Minimum() = %s, want 95.00: no discount is left, fine and interest aside", got)
	}
}

func TestTheFloor(t *testing.T) {
	terms := requestTerms(t, "10.00", `{"date":"2025-03-14","rebate":{"mode":"fixed","value":20}}`)
	got, err := terms.AmountOn(Date{2025, 3, 14})
	want := Breakdown{Day: Date{2025, 3, 14}, Original: 1000, Rebate: 999, Total: 1}
	if err != nil || got != want {
		t.Errorf("a rebate above the amount: %+v, %v; want %+v", got, err, want)
	}
}

func TestNoPartOverflows(t *testing.T) {
	terms := requestTerms(t, "9999999999.99",
		`{"date":"2025-03-14","days_after":3650,"fine":{"mode":"percent","value":9999999999.99},"interest":{"mode":"percent_per_day","value":9999999999.99}}`)
	got, err := terms.AmountOn(terms.LastDay())
	if err != nil || got.Fine != maxAmount+1 || got.Interest != maxAmount+1 || got.Total != 3*maxAmount+2 {
		t.Errorf("%+v, %v", got, err)
	}
}
