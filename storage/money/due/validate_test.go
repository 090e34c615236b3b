package due

import (
	"errors"
	"testing"
)

func TestValidateAccepts(t *testing.T) {
	atToday(t, "2025-03-01")
	for _, body := range []string{
		`{"date":"2025-03-01"}`,
		`{"date":"2025-03-14","days_after":0}`,
		`{"date":"2025-03-14","days_after":3650}`,
		`{"date":"2035-02-27"}`,
		`{"date":"2025-03-14","fine":{"mode":"percent","value":100},"interest":{"mode":"percent_per_year","value":1000,"days":"business"}}`,
		`{"date":"2025-03-14","rebate":{"mode":"fixed","value":99.99}}`,
		`{"date":"2025-03-14","rebate":{"mode":"percent","value":99.99}}`,
		`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-01","value":10},{"until":"2025-03-05","value":5},{"until":"2025-03-14","value":1}]}}`,
		// 13 days early at most: 13 × 7.69 = 99.97.
		`{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":7.69}}`,
		// 8 business days early at most: 8 × 12.49% = 99.92%.
		`{"date":"2025-03-14","discount":{"mode":"percent_per_day","value":12.49,"days":"business"}}`,
		// Dated discounts already past do not count.
		`{"date":"2025-03-14","rebate":{"mode":"fixed","value":50},"discount":{"mode":"fixed_until","dates":[{"until":"2025-02-20","value":60},{"until":"2025-03-10","value":49.99}]}}`,
	} {
		terms := requestTerms(t, "100.00", body)
		if err := terms.Validate(testDay); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	atToday(t, "2025-03-01")
	for _, c := range []struct{ body, field string }{
		{`{}`, "date"},
		{`{"date":"2025-02-28"}`, "date"},
		{`{"date":"2035-02-28"}`, "date"},
		{`{"date":"2025-03-14","days_after":-1}`, "days_after"},
		{`{"date":"2025-03-14","days_after":3651}`, "days_after"},
		{`{"date":"2025-03-14","fine":{"value":2}}`, "fine.mode"},
		{`{"date":"2025-03-14","fine":{"mode":"daily","value":2}}`, "fine.mode"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed"}}`, "fine.value"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":-1}}`, "fine.value"},
		{`{"date":"2025-03-14","fine":{"mode":"percent","value":100.01}}`, "fine.value"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":10000000000}}`, "fine.value"},
		{`{"date":"2025-03-14","interest":{"mode":"percent","value":1}}`, "interest.mode"},
		{`{"date":"2025-03-14","interest":{"mode":"fixed_per_day","value":0}}`, "interest.value"},
		{`{"date":"2025-03-14","interest":{"mode":"fixed_per_day","value":1,"days":"weekdays"}}`, "interest.days"},
		{`{"date":"2025-03-14","rebate":{"mode":"fixed_until","value":1}}`, "rebate.mode"},
		{`{"date":"2025-03-14","rebate":{"mode":"percent","value":0}}`, "rebate.value"},
		{`{"date":"2025-03-14","rebate":{"mode":"percent","value":101}}`, "rebate.value"},
		{`{"date":"2025-03-14","discount":{"value":1}}`, "discount.mode"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed"}}`, "discount.mode"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until"}}`, "discount.dates"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[]}}`, "discount.dates"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-02","value":1},{"until":"2025-03-03","value":1},{"until":"2025-03-04","value":1},{"until":"2025-03-05","value":1}]}}`, "discount.dates"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","value":1,"dates":[{"until":"2025-03-02","value":1}]}}`, "discount.value"},
		{`{"date":"2025-03-14","discount":{"mode":"percent_until","days":"calendar","dates":[{"until":"2025-03-02","value":1}]}}`, "discount.days"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"value":1}]}}`, "discount.dates[0].until"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-05","value":2},{"until":"2025-03-05","value":1}]}}`, "discount.dates[1].until"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-05","value":2},{"until":"2025-03-04","value":1}]}}`, "discount.dates[1].until"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-15","value":1}]}}`, "discount.dates[0].until"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-10"}]}}`, "discount.dates[0].value"},
		{`{"date":"2025-03-14","discount":{"mode":"percent_until","dates":[{"until":"2025-03-10","value":100.5}]}}`, "discount.dates[0].value"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_per_day"}}`, "discount.value"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":0}}`, "discount.value"},
		{`{"date":"2025-03-14","discount":{"mode":"percent_per_day","value":101}}`, "discount.value"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":1,"days":"working"}}`, "discount.days"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":1,"dates":[{"until":"2025-03-10","value":1}]}}`, "discount.dates"},
		// The floor: R$ 0.01 must be left to pay on every day from today.
		{`{"date":"2025-03-14","rebate":{"mode":"fixed","value":100}}`, "rebate.value"},
		{`{"date":"2025-03-14","rebate":{"mode":"percent","value":100}}`, "rebate.value"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-14","value":100}]}}`, "discount.dates[0].value"},
		{`{"date":"2025-03-14","discount":{"mode":"percent_until","dates":[{"until":"2025-03-14","value":100}]}}`, "discount.dates[0].value"},
		{`{"date":"2025-03-14","rebate":{"mode":"fixed","value":50},"discount":{"mode":"fixed_until","dates":[{"until":"2025-03-05","value":10},{"until":"2025-03-10","value":50}]}}`, "discount.dates[1].value"},
		// 13 days early: 13 × 7.70 = 100.10; 8 business days: 8 × 12.5% = 100%.
		{`{"date":"2025-03-14","discount":{"mode":"fixed_per_day","value":7.70}}`, "discount.value"},
		{`{"date":"2025-03-14","discount":{"mode":"percent_per_day","value":12.5,"days":"business"}}`, "discount.value"},
		// What the BCB's format cannot carry by the last day.
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":9999999999}}`, "fine.value"},
		{`{"date":"2025-03-14","days_after":3650,"interest":{"mode":"percent_per_day","value":9999999999}}`, "interest.value"},
	} {
		terms := requestTerms(t, "100.00", c.body)
		err := terms.Validate(testDay)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: Validate() = %v, want a *FieldError on %s", c.body, err, c.field)
			continue
		}
		if fe.Message == "" || fe.Error() != fe.Field+" "+fe.Message {
			t.Errorf("%s: %q does not name its field", c.body, fe.Error())
		}
	}
}

func TestValidateWithoutTheAmount(t *testing.T) {
	atToday(t, "2025-03-01")
	terms := requestTerms(t, "0", `{"date":"2025-03-14","rebate":{"mode":"fixed","value":100}}`)
	if err := terms.Validate(testDay); err != nil {
		t.Errorf("the floor needs the amount; without it Validate() = %v", err)
	}
}
