package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueTerms reads a charge's optional due member: a due-date charge's terms
// (docs/due-charges.md), validated and normalized. Unlike the body's own
// members, a member the terms do not know is refused: a misspelt fine
// would otherwise leave the charge without one.
func (o object) dueTerms() *due.Terms {
	d, ok := o.optionalObject("due", "date", "days_after", "fine", "interest", "rebate", "discount")
	if !ok {
		return nil
	}
	var t due.Terms
	if s, ok := d.requiredStr("date"); ok {
		date, err := due.ParseDate(s)
		if err != nil {
			d.errs.add(d.path("date"), "%s", err.Error())
		}
		t.Date = date
	}
	t.DaysAfter = d.wholeNumber("days_after")
	if f, ok := d.optionalObject("fine", "mode", "value"); ok {
		t.Fine = &due.Fine{Mode: f.mode(), Value: f.hundredths("value")}
	}
	if i, ok := d.optionalObject("interest", "mode", "value", "days"); ok {
		t.Interest = &due.Interest{Mode: i.mode(), Value: i.hundredths("value"), Days: i.optionalStr("days")}
	}
	if r, ok := d.optionalObject("rebate", "mode", "value"); ok {
		t.Rebate = &due.Rebate{Mode: r.mode(), Value: r.hundredths("value")}
	}
	if x, ok := d.optionalObject("discount", "mode", "dates", "value", "days"); ok {
		t.Discount = &due.Discount{Mode: x.mode(), Days: x.optionalStr("days"), Dates: x.datedDiscounts()}
		if _, ok := x.raw("value"); ok {
			v := x.hundredths("value")
			t.Discount.Value = &v
		}
	}
	if !o.errs.empty() {
		return nil
	}
	t.Normalize()
	if err := t.Validate(); err != nil {
		var fe *due.FieldError
		if errors.As(err, &fe) {
			d.errs.add(d.path(fe.Field), "%s", fe.Message)
		} else {
			d.errs.add(d.prefix[:len(d.prefix)-1], "%s", err.Error())
		}
		return nil
	}
	return &t
}

// optionalObject returns a nested object member when present, refusing
// members other than known.
func (o object) optionalObject(name string, known ...string) (object, bool) {
	if _, ok := o.raw(name); !ok {
		return object{}, false
	}
	nested, ok := o.requiredObject(name)
	if !ok {
		return nested, false
	}
	for m := range nested.m {
		if !slices.Contains(known, m) {
			nested.errs.add(nested.path(m), "is not a member of %s (it takes %v)", o.path(name), known)
		}
	}
	return nested, true
}

// mode reads a required mode; the terms' validation says which it takes.
func (o object) mode() string {
	s, _ := o.requiredStr("mode")
	return s
}

// optionalStr is an optional string member ("" when absent).
func (o object) optionalStr(name string) string {
	s, _ := o.str(name)
	return s
}

// hundredths reads a required positive number with at most two decimals
// exactly: reais, or a percentage, as the mode says.
func (o object) hundredths(name string) due.Value {
	r, ok := o.raw(name)
	if !ok {
		o.errs.add(o.path(name), "is required")
		return 0
	}
	if r[0] == '"' {
		o.errs.add(o.path(name), "must be a number, not a string")
		return 0
	}
	m, err := money.ParseAmount(r)
	if err != nil {
		o.errs.add(o.path(name), "%s", err.Error())
		return 0
	}
	return due.Value(m)
}

// wholeNumber reads an optional non-negative JSON integer (0 when absent).
func (o object) wholeNumber(name string) int {
	r, ok := o.raw(name)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(string(r))
	if err != nil || n < 0 {
		o.errs.add(o.path(name), "must be a whole number of days, 0 or more")
		return 0
	}
	return n
}

// datedDiscounts reads discount.dates: an array of {until, value}.
func (o object) datedDiscounts() []due.DatedDiscount {
	r, ok := o.raw("dates")
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if r[0] != '[' || json.Unmarshal(r, &items) != nil {
		o.errs.add(o.path("dates"), "must be an array of {until, value}")
		return nil
	}
	out := make([]due.DatedDiscount, 0, len(items))
	for i, raw := range items {
		el := object{ctx: o.ctx, prefix: o.prefix, m: map[string]json.RawMessage{fmt.Sprintf("dates[%d]", i): raw}, errs: o.errs}
		item, ok := el.optionalObject(fmt.Sprintf("dates[%d]", i), "until", "value")
		if !ok {
			if _, present := el.raw(fmt.Sprintf("dates[%d]", i)); !present {
				o.errs.add(o.path(fmt.Sprintf("dates[%d]", i)), "must be an object {until, value}")
			}
			continue
		}
		var dd due.DatedDiscount
		if s, ok := item.requiredStr("until"); ok {
			d, err := due.ParseDate(s)
			if err != nil {
				item.errs.add(item.path("until"), "%s", err.Error())
			}
			dd.Until = d
		}
		dd.Value = item.hundredths("value")
		out = append(out, dd)
	}
	return out
}
