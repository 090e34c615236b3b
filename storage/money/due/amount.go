package due

import (
	"github.com/pixgate/pixgate/storage/money"
)

// floor is the least a charge asks on any day it can be paid: R$ 0.01. A
// PIX of zero does not exist, and the BCB refuses terms whose rebate or
// discount could reach the whole amount.
const floor money.Money = 1

// maxAmount is the largest amount the BCB's format carries
// (\d{1,10}\.\d{2}): what a value may be, and what a charge may ask.
const maxAmount money.Money = 999_999_999_999

// Normalize fills in the defaults in place: DefaultDaysAfter for a
// DaysAfter of 0, and CalendarDays for the day count of interest and of a
// per-day discount.
func (t *Terms) Normalize() {
	if t.DaysAfter == 0 {
		t.DaysAfter = DefaultDaysAfter
	}
	if t.Interest != nil && t.Interest.Days == "" {
		t.Interest.Days = CalendarDays
	}
	if d := t.Discount; d != nil && d.perDay() && d.Days == "" {
		d.Days = CalendarDays
	}
}

// dueDay is the due date as it counts: Date, or the first business day
// after it when Date is not one. Paying on it is paying on time.
func (t Terms) dueDay() Date { return NextBusinessDay(t.Date) }

// daysAfter is DaysAfter with its default.
func (t Terms) daysAfter() int {
	if t.DaysAfter == 0 {
		return DefaultDaysAfter
	}
	return t.DaysAfter
}

// LastDay is the last day the charge can be paid: DaysAfter calendar days
// after the due date as it counts, moved on to the next business day when
// it is not one, as the BCB's validadeAposVencimento examples read.
func (t Terms) LastDay() Date { return NextBusinessDay(t.dueDay().AddDays(t.daysAfter())) }

// Minimum is the least any day the charge can still be paid asks, from
// today (in Brasília; a charge is not paid before it exists): the most
// rebate and discount, no fine or interest, never below R$ 0.01.
func (t Terms) Minimum(today Date) money.Money { return max(t.lowest(today).Total, floor) }

// AmountOn is what the charge asks when paid on day; ErrPastValidity after
// LastDay. docs/due-charges.md holds the rules.
func (t Terms) AmountOn(day Date) (Breakdown, error) {
	if day.After(t.LastDay()) {
		return Breakdown{Day: day, Original: t.Original}, ErrPastValidity
	}
	return t.raw(day).floored(), nil
}

// raw is what day asks before the floor: a rebate always; a discount on
// or before the due date; a fine and interest after it.
func (t Terms) raw(day Date) Breakdown {
	b := Breakdown{Day: day, Original: t.Original, Rebate: t.rebate()}
	base := t.Original - b.Rebate
	if due := t.dueDay(); day.After(due) {
		b.Fine = t.fine(base)
		b.Interest = t.interest(base, due, day)
	} else {
		b.Discount = t.discount(base, day, due)
	}
	b.Total = b.Original - b.Rebate - b.Discount + b.Fine + b.Interest
	return b
}

// floored gives back discount, then rebate, until the total is the floor.
func (b Breakdown) floored() Breakdown {
	for _, part := range []*money.Money{&b.Discount, &b.Rebate} {
		if short := floor - b.Total; short > 0 {
			cut := min(short, *part)
			*part -= cut
			b.Total += cut
		}
	}
	return b
}

// lowest is the raw breakdown of the day from from on that asks the least,
// fine and interest aside: the discount changes only on from and on each
// dated discount's last day, so those are the days to look at.
func (t Terms) lowest(from Date) Breakdown {
	due := t.dueDay()
	if from.After(due) {
		b := Breakdown{Day: from, Original: t.Original, Rebate: t.rebate()}
		b.Total = b.Original - b.Rebate
		return b
	}
	best := t.raw(from)
	if t.Discount == nil {
		return best
	}
	for _, d := range t.Discount.Dates {
		if until := NextBusinessDay(d.Until); until.After(from) && !until.After(due) {
			if b := t.raw(until); b.Total < best.Total {
				best = b
			}
		}
	}
	return best
}

// rebate is taken off the original whatever the day: a fixed amount or a
// percentage of the original.
func (t Terms) rebate() money.Money {
	if t.Rebate == nil {
		return 0
	}
	switch t.Rebate.Mode {
	case RebateFixed:
		return fixed(t.Rebate.Value)
	case RebatePercent:
		return percentOf(t.Original, t.Rebate.Value, 1, 1)
	}
	return 0
}

// fine is charged once after the due date: a fixed amount or a percentage
// of base, the original less the rebate.
func (t Terms) fine(base money.Money) money.Money {
	if t.Fine == nil {
		return 0
	}
	switch t.Fine.Mode {
	case FineFixed:
		return fixed(t.Fine.Value)
	case FinePercent:
		return percentOf(base, t.Fine.Value, 1, 1)
	}
	return 0
}

// interest accrues for each day (calendar or business) after the due
// date, up to and including day: the BCB's Equation 11,
// base × (rate / 100) / n × days, n being 1, 30 or 365 with calendar days
// and 1, 21 or 252 with business days.
func (t Terms) interest(base money.Money, due, day Date) money.Money {
	in := t.Interest
	if in == nil {
		return 0
	}
	days := int64(day.Sub(due))
	if in.Days == BusinessDays {
		days = int64(businessDaysBetween(due, day))
	}
	month, year := int64(30), int64(365)
	if in.Days == BusinessDays {
		month, year = 21, 252
	}
	switch in.Mode {
	case InterestFixedPerDay:
		return product(1, int64(fixed(in.Value)), days)
	case InterestPercentPerDay:
		return percentOf(base, in.Value, days, 1)
	case InterestPercentPerMonth:
		return percentOf(base, in.Value, days, month)
	case InterestPercentPerYear:
		return percentOf(base, in.Value, days, year)
	}
	return 0
}

// discount is taken off when paid on or before the due date: the dated
// discount that holds on day, or so much per day paid early.
func (t Terms) discount(base money.Money, day, due Date) money.Money {
	d := t.Discount
	if d == nil {
		return 0
	}
	if !d.perDay() {
		i := d.holding(day)
		if i < 0 {
			return 0
		}
		if d.Mode == DiscountPercentUntil {
			return percentOf(base, d.Dates[i].Value, 1, 1)
		}
		return fixed(d.Dates[i].Value)
	}
	if d.Value == nil {
		return 0
	}
	early := int64(due.Sub(day))
	if d.Days == BusinessDays {
		early = int64(businessDaysBetween(day, due))
	}
	if d.Mode == DiscountPercentPerDay {
		return percentOf(base, *d.Value, early, 1)
	}
	return product(1, int64(fixed(*d.Value)), early)
}

// perDay reports whether the discount is so much per day paid early.
func (d Discount) perDay() bool {
	return d.Mode == DiscountFixedPerDay || d.Mode == DiscountPercentPerDay
}

// holding is the index of the dated discount that holds on day: the first,
// in order, whose date (moved on to a business day when it is not one)
// is day or later; -1 when none does.
func (d Discount) holding(day Date) int {
	for i, e := range d.Dates {
		if !NextBusinessDay(e.Until).Before(day) {
			return i
		}
	}
	return -1
}
