package due

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestTermsJSONRoundTrip(t *testing.T) {
	v := Value(150)
	in := Terms{
		Original:  12345,
		Date:      Date{2025, 3, 14},
		DaysAfter: 10,
		Fine:      &Fine{Mode: FinePercent, Value: 200},
		Interest:  &Interest{Mode: InterestPercentPerMonth, Value: 100, Days: BusinessDays},
		Rebate:    &Rebate{Mode: RebateFixed, Value: 1050},
		Discount:  &Discount{Mode: DiscountPercentPerDay, Value: &v, Days: CalendarDays},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"date":"2025-03-14","days_after":10,"fine":{"mode":"percent","value":2.00},` +
		`"interest":{"mode":"percent_per_month","value":1.00,"days":"business"},` +
		`"rebate":{"mode":"fixed","value":10.50},"discount":{"mode":"percent_per_day","value":1.50,"days":"calendar"}}`
	if string(b) != want {
		t.Errorf("Marshal:\n got %s\nwant %s", b, want)
	}
	out := Terms{Original: in.Original} // Original is the charge's, not the terms' JSON
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip:\n got %+v\nwant %+v", out, in)
	}

	dated := Terms{Date: Date{2025, 3, 14}, DaysAfter: 30, Discount: &Discount{Mode: DiscountFixedUntil,
		Dates: []DatedDiscount{{Until: Date{2025, 3, 5}, Value: 1000}, {Until: Date{2025, 3, 10}, Value: 500}}}}
	b, _ = json.Marshal(dated)
	var back Terms
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, dated) {
		t.Errorf("round trip of %s: %+v, %v", b, back, err)
	}
}

func TestTermsJSONInsideARequest(t *testing.T) {
	var req struct {
		Amount float64 `json:"amount"`
		Due    *Terms  `json:"due"`
	}
	err := json.Unmarshal([]byte(`{"amount": 10, "due": {"date": "2025-03-14", "fine": {"mode": "fixed", "value": 2}}}`), &req)
	if err != nil || req.Due == nil || req.Due.Fine.Value != 200 {
		t.Fatalf("%+v, %v", req.Due, err)
	}
	err = json.Unmarshal([]byte(`{"due": {"date": "2025-03-14", "fine": {"mode": "fixed", "valor": 2}}}`), &req)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "fine.valor" {
		t.Fatalf("an unknown member inside the terms: %v, want a *FieldError on fine.valor", err)
	}
	if err := json.Unmarshal([]byte(`{"due": null}`), &req); err != nil || req.Due != nil {
		t.Errorf("null terms: %+v, %v", req.Due, err)
	}
}

func TestTermsJSONRefuses(t *testing.T) {
	for _, c := range []struct{ body, field, message string }{
		{`{"date":"2025-03-14","original":"10.00"}`, "original", "is not a member of the terms"},
		{`{"date":"2025-03-14","multa":{}}`, "multa", "is not a member of the terms"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":1,"days":"business"}}`, "fine.days", "is not a member of the terms"},
		{`{"date":"2025-03-14","interest":{"mode":"fixed_per_day","value":1,"day":"business"}}`, "interest.day", "is not a member of the terms"},
		{`{"date":"2025-03-14","rebate":{"mode":"fixed","value":1,"until":"2025-03-01"}}`, "rebate.until", "is not a member of the terms"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[{"until":"2025-03-01","value":1,"days":"calendar"}]}}`, "discount.dates[0].days", "is not a member of the terms"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","percent":true}}`, "discount.percent", "is not a member of the terms"},
		{`{"date":"2025-03-14","date":"2025-03-15"}`, "date", "must appear only once"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","mode":"percent","value":1}}`, "fine.mode", "must appear only once"},
		{`{"date":"14/03/2025"}`, "date", "must be a date, YYYY-MM-DD"},
		{`{"date":"2025-03-14","days_after":"10"}`, "days_after", "must be a whole number"},
		{`{"date":"2025-03-14","days_after":1.5}`, "days_after", "must be a whole number"},
		{`{"date":"2025-03-14","fine":{"mode":1,"value":1}}`, "fine.mode", "must be a string"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":"2.00"}}`, "fine.value", "must be a number"},
		{`{"date":"2025-03-14","fine":{"mode":"fixed","value":2.005}}`, "fine.value", "must have at most 2 decimal places"},
		{`{"date":"2025-03-14","fine":[]}`, "fine", "must be an object"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":{}}}`, "discount.dates", "must be an array"},
		{`{"date":"2025-03-14","discount":{"mode":"fixed_until","dates":[1]}}`, "discount.dates[0]", "must be an object"},
		{`[]`, "", "must be an object"},
	} {
		var terms Terms
		err := json.Unmarshal([]byte(c.body), &terms)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Message != c.message {
			t.Errorf("%s: %v, want a *FieldError %q %q", c.body, err, c.field, c.message)
		}
	}
}

func TestTermsJSONNullMembersAreAbsent(t *testing.T) {
	var terms Terms
	body := `{"date":"2025-03-14","days_after":null,"fine":null,"discount":{"mode":"fixed_per_day","value":1,"days":null,"dates":null}}`
	if err := json.Unmarshal([]byte(body), &terms); err != nil {
		t.Fatal(err)
	}
	if terms.DaysAfter != 0 || terms.Fine != nil || terms.Discount.Days != "" || terms.Discount.Dates != nil {
		t.Errorf("%+v", terms)
	}
}

func TestFieldErrorOfTheTermsThemselves(t *testing.T) {
	if got := (&FieldError{Message: "must be an object"}).Error(); got != "must be an object" {
		t.Errorf("%q", got)
	}
	if got := (&FieldError{Field: "fine.value", Message: "must be greater than zero"}).Error(); got != "fine.value must be greater than zero" {
		t.Errorf("%q", got)
	}
}
