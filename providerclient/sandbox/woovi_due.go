package sandbox

import (
	"cmp"
	"slices"

	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The woovi face's due-date charges: Woovi's type OVERDUE, read as the
// core's due.Terms. Woovi counts the due date (daysForDueDate) and each
// dated discount's end (daysActive) in days from the day it creates the
// charge, gives a discount only before the due date, the largest still
// active, charges a fine once from the day after the due date and
// interest in basis points of the value per calendar day late
// (docs/provider.md, "Due-date charges (woovi)"). The terms say the same
// in PixGate's form: what a day asks is the core's to compute.

// wooviDueDaysAfter is how long an OVERDUE charge without
// daysAfterDueDate can be paid after its due date: Woovi's documents give
// no default, and the BCB's is 30 days.
const wooviDueDaysAfter = due.DefaultDaysAfter

// wooviDue reads the due-date terms of req, created on today with value
// amount: nil for a charge without a due date, or Woovi's complaint.
func wooviDue(req wooviapi.ChargeRequest, amount money.Money, today due.Date) (*due.Terms, string) {
	switch req.Type {
	case "", wooviapi.ChargeDynamic:
		return nil, "" // Woovi considers the due-date fields for OVERDUE only
	case wooviapi.ChargeOverdue:
	default:
		return nil, "type must be DYNAMIC or OVERDUE (the sandbox issues no BOLETO)"
	}
	switch c := req.Customer; {
	case c == nil || c.Name == "" || c.TaxID == "":
		return nil, "an OVERDUE charge needs a customer with a name and a taxID"
	case req.DaysForDueDate < 1:
		return nil, "daysForDueDate must be at least 1 for an OVERDUE charge"
	case req.DaysAfterDueDate < 0:
		return nil, "daysAfterDueDate must not be negative"
	}
	t := &due.Terms{Original: amount, Date: today.AddDays(req.DaysForDueDate),
		DaysAfter: cmp.Or(req.DaysAfterDueDate, wooviDueDaysAfter)}
	var msg string
	if t.Fine, msg = wooviFine(req.Fines); msg != "" {
		return nil, msg
	}
	if t.Interest, msg = wooviInterest(req.Interests); msg != "" {
		return nil, msg
	}
	if t.Discount, msg = wooviDiscount(req.DiscountSettings, t.Date, today); msg != "" {
		return nil, msg
	}
	return t, ""
}

// wooviFine: FIXED in centavos, PERCENTAGE (the default) in basis points
// of the value; none when 0.
func wooviFine(r *wooviapi.Rate) (*due.Fine, string) {
	switch {
	case r == nil || r.Value == 0:
		return nil, ""
	case r.Value < 0:
		return nil, "fines.value must not be negative"
	case r.Type == wooviapi.RateFixed:
		return &due.Fine{Mode: due.FineFixed, Value: due.Value(r.Value)}, ""
	case r.Type == "" || r.Type == wooviapi.RatePercentage:
		return &due.Fine{Mode: due.FinePercent, Value: due.Value(r.Value)}, ""
	}
	return nil, "fines.type must be FIXED or PERCENTAGE"
}

// wooviInterest: basis points of the value per calendar day late; none
// when 0. Woovi's documents do not say how interests of type FIXED accrue:
// the sandbox does not simulate them.
func wooviInterest(r *wooviapi.Rate) (*due.Interest, string) {
	switch {
	case r == nil || r.Value == 0:
		return nil, ""
	case r.Value < 0:
		return nil, "interests.value must not be negative"
	case r.Type == "" || r.Type == wooviapi.RatePercentage:
		return &due.Interest{Mode: due.InterestPercentPerDay, Value: due.Value(r.Value), Days: due.CalendarDays}, ""
	case r.Type == wooviapi.RateFixed:
		return nil, "interests of type FIXED are not simulated by the sandbox"
	}
	return nil, "interests.type must be FIXED or PERCENTAGE"
}

// wooviDiscount reads discountSettings; the business-day modalities need
// a calendar of banking holidays the sandbox does not keep.
func wooviDiscount(d *wooviapi.DiscountSettings, date, today due.Date) (*due.Discount, string) {
	if d == nil {
		return nil, ""
	}
	perDay := map[string]string{wooviapi.DiscountValuePerRunningDay: due.DiscountFixedPerDay,
		wooviapi.DiscountPercentagePerRunningDay: due.DiscountPercentPerDay}
	switch d.Modality {
	case wooviapi.DiscountFixedUntil:
		return wooviDatedDiscount(due.DiscountFixedUntil, d.DiscountFixedDate, date, today)
	case wooviapi.DiscountPercentageUntil:
		return wooviDatedDiscount(due.DiscountPercentUntil, d.DiscountFixedDate, date, today)
	case wooviapi.DiscountValuePerRunningDay, wooviapi.DiscountPercentagePerRunningDay:
		if d.Value < 1 {
			return nil, "discountSettings.value must be at least 1"
		}
		v := due.Value(d.Value)
		return &due.Discount{Mode: perDay[d.Modality], Value: &v, Days: due.CalendarDays}, ""
	case wooviapi.DiscountValuePerBusinessDay, wooviapi.DiscountPercentagePerBusinessDay:
		return nil, "discountSettings.modality " + d.Modality + " is not simulated by the sandbox, which keeps no calendar of business days"
	}
	return nil, "discountSettings.modality is not one of Woovi's"
}

// wooviDatedDiscount turns Woovi's tiers (the largest discount whose
// daysActive has not passed, before the due date only) into dated
// discounts that say the same whichever way they are read: each date no
// later than the day before the due date, each discount the largest of
// the tiers that reach its date, and a tier another gives as much as
// until a later date left out, so later dates always give less.
func wooviDatedDiscount(mode string, tiers []wooviapi.DiscountFixedDate, date, today due.Date) (*due.Discount, string) {
	if len(tiers) == 0 {
		return nil, "discountSettings.discountFixedDate must hold at least one entry"
	}
	var out []due.DatedDiscount
	for _, tr := range tiers {
		if tr.DaysActive < 1 || tr.Value < 0 {
			return nil, "discountFixedDate: daysActive must be at least 1 and value not negative"
		}
		until := today.AddDays(tr.DaysActive)
		if !until.Before(date) {
			until = date.AddDays(-1)
		}
		out = append(out, due.DatedDiscount{Until: until, Value: due.Value(tr.Value)})
	}
	slices.SortFunc(out, func(a, b due.DatedDiscount) int { return b.Until.Sub(a.Until) }) // latest first
	var kept []due.DatedDiscount
	for _, d := range out {
		switch n := len(kept); {
		case n > 0 && d.Until == kept[n-1].Until:
			kept[n-1].Value = max(kept[n-1].Value, d.Value)
		case n > 0 && d.Value <= kept[n-1].Value:
			// Until d.Until, the later tier gives as much: d never applies.
		default:
			kept = append(kept, d)
		}
	}
	slices.Reverse(kept)
	if len(kept) > due.MaxDiscountDates {
		return nil, "discountFixedDate: the sandbox takes at most 3 tiers that apply (the BCB's cobv holds three dates)"
	}
	return &due.Discount{Mode: mode, Dates: kept}, ""
}
