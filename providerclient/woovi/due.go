package woovi

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Due-date charges are Woovi's charges of type OVERDUE. Woovi counts their
// due date (daysForDueDate) and the end of each dated discount
// (daysActive) in whole days from the day it creates the charge, gives a
// discount only before the due date, the largest of those still active,
// and takes every percentage (fine, interest, discount) of the charge's
// value, interest per calendar day late. The connector sends the days
// PixGate counts (calendar.go) and the value less any rebate; terms that
// Woovi cannot hold exactly are refused before any call as unsupported,
// naming the field, never approximated (docs/provider.md, "Due-date
// charges (woovi)").

// midnightMargin is how near a midnight in Brasília a due-date charge is
// not asked for: Woovi counts its days from the day it creates the charge,
// and a request that crosses midnight, or a clock a little off Woovi's,
// would move every date by one.
const midnightMargin = time.Minute

// dueCharge makes in a due-date charge of req's terms, created on the day
// it is at now in Brasília.
func dueCharge(in *wooviapi.ChargeRequest, req providerclient.ChargeRequest, now time.Time) error {
	switch {
	case req.Payer.Name == "":
		return refuse("payer.name", "is required for a due-date charge")
	case req.Payer.Document == "":
		return refuse("payer.document", "is required for a due-date charge")
	}
	t := *req.Due
	t.Normalize()
	in.Value, in.ExpiresIn = int64(cmp.Or(t.Original, req.Amount)), 0
	today := due.Today(now)
	if err := dueTerms(in, t, today); err != nil {
		return err
	}
	if due.Today(now.Add(-midnightMargin)) != today || due.Today(now.Add(midnightMargin)) != today {
		return &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrUnavailable,
			Message: "a due-date charge is not asked for within a minute of midnight in Brasília, as Woovi counts its days from the day it creates it: try again"}
	}
	return nil
}

// lastMoment is when a charge of terms t stops being payable: the end of
// its last day in Brasília.
func lastMoment(t due.Terms) time.Time {
	t.Normalize()
	return t.LastDay().End()
}

// dueTerms fills in t's due date, validity, rebate, fine, interest and
// discount, or refuses what Woovi cannot hold.
func dueTerms(in *wooviapi.ChargeRequest, t due.Terms, today due.Date) error {
	date, ok := countedDay(t.Date)
	if !ok {
		return refuse("due.date", ashWednesdayWhy)
	}
	if date.Sub(today) < 1 {
		return refuse("due.date", "a due date before tomorrow is not supported by this provider, whose daysForDueDate counts whole days from the day the charge is created")
	}
	last, ok := countedDay(date.AddDays(t.DaysAfter))
	if !ok {
		return refuse("due.days_after", "the last day "+ashWednesdayWhy)
	}
	in.Type, in.DaysForDueDate, in.DaysAfterDueDate = wooviapi.ChargeOverdue, date.Sub(today), last.Sub(date)
	if err := rebate(in, t.Rebate); err != nil {
		return err
	}
	var err error
	if in.Fines, err = fine(t.Fine); err != nil {
		return err
	}
	if in.Interests, err = interest(t.Interest); err != nil {
		return err
	}
	in.DiscountSettings, err = discount(t.Discount, date, today)
	return err
}

// ashWednesdayWhy is why a date on Ash Wednesday is refused.
const ashWednesdayWhy = "falls on Ash Wednesday, a business day for PixGate and a holiday in Woovi's calendar, which this provider may count otherwise"

// rebate is taken off whatever the day, and every percentage of PixGate's
// terms is of the amount after it, as Woovi's are of the charge's value:
// the charge's value is the amount less the rebate (half up, of the
// amount, when a percentage).
func rebate(in *wooviapi.ChargeRequest, r *due.Rebate) error {
	if r == nil {
		return nil
	}
	var off money.Money
	switch r.Mode {
	case due.RebateFixed:
		off = r.Value.Money()
	case due.RebatePercent:
		off = money.Percent(int64(r.Value) * 100).Compute(money.Money(in.Value)) // hundredths of a percent in millionths
	default:
		return refuse("due.rebate.mode", fmt.Sprintf("%q is not supported by this provider", r.Mode))
	}
	if in.Value-int64(off) < 1 {
		return refuse("due.rebate.value", "leaves nothing of the amount")
	}
	in.Value -= int64(off)
	return nil
}

// refuse is the refusal of a term Woovi cannot hold, made before any call:
// the provider holds nothing of it.
func refuse(field, why string) error {
	kind := providerclient.ErrUnsupported // another provider may hold it: the route moves on
	if field == "payer.name" || field == "payer.document" {
		kind = providerclient.ErrRejected // no provider would
	}
	return &providerclient.Error{Op: providerclient.OpCharge, Kind: kind, Absent: true, Message: field + ": " + why}
}

// fine is charged once, from the day after the due date: centavos, or
// basis points of the charge's value (the original amount: rebates are
// refused).
func fine(f *due.Fine) (*wooviapi.Rate, error) {
	if f == nil {
		return nil, nil
	}
	switch f.Mode {
	case due.FineFixed:
		return &wooviapi.Rate{Value: int64(f.Value), Type: wooviapi.RateFixed}, nil
	case due.FinePercent:
		return &wooviapi.Rate{Value: int64(f.Value), Type: wooviapi.RatePercentage}, nil
	}
	return nil, refuse("due.fine.mode", fmt.Sprintf("%q is not supported by this provider", f.Mode))
}

// interest is Woovi's only kind: basis points of the charge's value per
// calendar day after the due date.
func interest(i *due.Interest) (*wooviapi.Rate, error) {
	switch {
	case i == nil:
		return nil, nil
	case i.Days == due.BusinessDays:
		return nil, refuse("due.interest.days", "business days are not supported by this provider")
	case i.Days != "" && i.Days != due.CalendarDays:
		return nil, refuse("due.interest.days", fmt.Sprintf("%q is not supported by this provider", i.Days))
	case i.Mode != due.InterestPercentPerDay:
		return nil, refuse("due.interest.mode", fmt.Sprintf("%q is not supported by this provider, whose interest is a percentage per calendar day (%s)",
			i.Mode, due.InterestPercentPerDay))
	}
	return &wooviapi.Rate{Value: int64(i.Value), Type: wooviapi.RatePercentage}, nil
}

// discount is a discount per calendar day paid early, or discounts until
// dates (datedDiscount).
func discount(d *due.Discount, date, today due.Date) (*wooviapi.DiscountSettings, error) {
	if d == nil {
		return nil, nil
	}
	switch d.Mode {
	case due.DiscountFixedUntil:
		return datedDiscount(wooviapi.DiscountFixedUntil, d.Dates, date, today)
	case due.DiscountPercentUntil:
		return datedDiscount(wooviapi.DiscountPercentageUntil, d.Dates, date, today)
	case due.DiscountFixedPerDay:
		return perDayDiscount(wooviapi.DiscountValuePerRunningDay, d)
	case due.DiscountPercentPerDay:
		return perDayDiscount(wooviapi.DiscountPercentagePerRunningDay, d)
	}
	return nil, refuse("due.discount.mode", fmt.Sprintf("%q is not supported by this provider", d.Mode))
}

func perDayDiscount(modality string, d *due.Discount) (*wooviapi.DiscountSettings, error) {
	switch {
	case d.Days == due.BusinessDays:
		return nil, refuse("due.discount.days", "business days are not supported by this provider")
	case d.Days != "" && d.Days != due.CalendarDays:
		return nil, refuse("due.discount.days", fmt.Sprintf("%q is not supported by this provider", d.Days))
	case d.Value == nil || *d.Value < 1:
		return nil, refuse("due.discount.value", "must be at least 0.01 for this provider")
	}
	return &wooviapi.DiscountSettings{Modality: modality, Value: int64(*d.Value)}, nil
}

// datedDiscount holds each discount until its date as PixGate counts it.
// Woovi gives the largest discount still active, and none on the due date
// itself: the same as "the discount of the nearest date not passed" only
// when later dates never give more, and when every date counts before the
// due date.
func datedDiscount(modality string, dates []due.DatedDiscount, date, today due.Date) (*wooviapi.DiscountSettings, error) {
	if len(dates) == 0 {
		return nil, refuse("due.discount.dates", "at least one date is required by this provider")
	}
	order := make([]int, len(dates))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return dates[a].Until.Sub(dates[b].Until) })
	out := &wooviapi.DiscountSettings{Modality: modality}
	for k, i := range order {
		dd, field := dates[i], fmt.Sprintf("due.discount.dates[%d]", i)
		until, ok := countedDay(dd.Until)
		switch {
		case !ok:
			return nil, refuse(field+".until", ashWednesdayWhy)
		case !until.Before(date):
			return nil, refuse(field+".until", "a discount on the due date is not supported by this provider, whose discounts end the day before it")
		case until.Sub(today) < 1:
			return nil, refuse(field+".until", "must be after the day the charge is created for this provider (daysActive is at least 1)")
		case k > 0 && dd.Until == dates[order[k-1]].Until:
			return nil, refuse(field+".until", "two discounts until the same day are not supported by this provider")
		case k > 0 && dd.Value > dates[order[k-1]].Value:
			return nil, refuse(field+".value", "a discount larger than that of an earlier date is not supported by this provider, which gives the largest discount still active")
		}
		out.DiscountFixedDate = append(out.DiscountFixedDate, wooviapi.DiscountFixedDate{DaysActive: until.Sub(today), Value: int64(dd.Value)})
	}
	return out, nil
}
