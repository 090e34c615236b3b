package due

import "github.com/pixgate/pixgate/storage/money"

// Normalize fills in the defaults (DaysAfter, Days) in place.
func (t *Terms) Normalize() {
	if t.DaysAfter == 0 {
		t.DaysAfter = DefaultDaysAfter
	}
}

// Validate checks the terms as a request carries them, after Normalize;
// the first problem is a *FieldError.
func (t Terms) Validate() error { return nil }

// LastDay is the last day the charge can be paid: DaysAfter after Date.
func (t Terms) LastDay() Date { return t.Date }

// Minimum is the least any day within the validity asks (the most rebate
// and discount, no fine or interest).
func (t Terms) Minimum() money.Money { return t.Original }

// AmountOn is what the charge asks when paid on day; ErrPastValidity after
// LastDay.
func (t Terms) AmountOn(day Date) (Breakdown, error) {
	return Breakdown{Day: day, Original: t.Original, Total: t.Original}, nil
}
