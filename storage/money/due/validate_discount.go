package due

import "fmt"

// checkDiscount: a known mode with its own members and none of another's
// (the BCB: dates for modes 1 and 2, valorPerc for 3 to 6).
func (t Terms) checkDiscount() *FieldError {
	d := t.Discount
	if d == nil {
		return nil
	}
	err := checkMode("discount.mode", d.Mode,
		DiscountFixedUntil, DiscountPercentUntil, DiscountFixedPerDay, DiscountPercentPerDay)
	if err != nil {
		return err
	}
	if d.perDay() {
		return d.checkPerDay()
	}
	return t.checkDated()
}

// checkPerDay: a value and a day count, no dates.
func (d Discount) checkPerDay() *FieldError {
	switch {
	case len(d.Dates) > 0:
		return fieldErr("discount.dates", "must not be sent with mode %s", d.Mode)
	case d.Value == nil:
		return fieldErr("discount.value", "is required with mode %s", d.Mode)
	}
	if err := checkValue("discount.value", *d.Value, d.Mode == DiscountPercentPerDay, true); err != nil {
		return err
	}
	return checkDays("discount.days", d.Days)
}

// checkDated: one to MaxDiscountDates dates, in increasing order, none
// after the due date, each with its value; no value or day count of its
// own.
func (t Terms) checkDated() *FieldError {
	d := t.Discount
	switch {
	case d.Value != nil:
		return fieldErr("discount.value", "must not be sent with mode %s: each of discount.dates carries its value", d.Mode)
	case d.Days != "":
		return fieldErr("discount.days", "must not be sent with mode %s", d.Mode)
	case len(d.Dates) == 0:
		return fieldErr("discount.dates", "is required with mode %s", d.Mode)
	case len(d.Dates) > MaxDiscountDates:
		return fieldErr("discount.dates", "must hold at most %d dates", MaxDiscountDates)
	}
	for i, e := range d.Dates {
		at := fmt.Sprintf("discount.dates[%d].", i)
		switch {
		case e.Until.IsZero():
			return fieldErr(at+"until", "is required")
		case i > 0 && !e.Until.After(d.Dates[i-1].Until):
			return fieldErr(at+"until", "must be after discount.dates[%d].until (%s)", i-1, d.Dates[i-1].Until)
		case e.Until.After(t.Date):
			return fieldErr(at+"until", "must not be after the due date (%s)", t.Date)
		}
		if err := checkValue(at+"value", e.Value, d.Mode == DiscountPercentUntil, true); err != nil {
			return err
		}
	}
	return nil
}

// checkAmounts: no payable day from today on asks less than the floor
// before it applies (the BCB refuses a rebate or a discount that could
// take the whole amount), and none, up to the last day, more than the
// BCB's format carries. Skipped while Original is not set.
func (t Terms) checkAmounts(today Date) *FieldError {
	if t.Original <= 0 {
		return nil
	}
	if low := t.lowest(today); low.Total < floor {
		if t.Original-low.Rebate < floor {
			return fieldErr("rebate.value", "leaves less than R$ %s to pay of the amount, R$ %s", floor, t.Original)
		}
		return fieldErr(t.discountField(low.Day), "leaves, with any rebate, less than R$ %s to pay of the amount, R$ %s, when paid on %s",
			floor, t.Original, low.Day)
	}
	last := t.raw(t.LastDay())
	switch {
	case last.Fine > maxAmount || (last.Total > maxAmount && t.Interest == nil && t.Fine != nil):
		return fieldErr("fine.value", "makes the charge ask more than %s after its due date", maxAmount)
	case last.Total > maxAmount && t.Interest != nil:
		return fieldErr("interest.value", "makes the charge ask more than %s by its last day, %s", maxAmount, last.Day)
	}
	return nil
}

// discountField is the member whose discount holds on day.
func (t Terms) discountField(day Date) string {
	if d := t.Discount; d != nil && !d.perDay() {
		if i := d.holding(day); i >= 0 {
			return fmt.Sprintf("discount.dates[%d].value", i)
		}
	}
	return "discount.value"
}
