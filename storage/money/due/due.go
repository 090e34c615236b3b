// Package due is what a due-date charge (the BCB's cobv) asks of its payer
// on a given day: its original amount less a rebate and any discount for
// paying early, or plus a fine and interest for paying late, in integer
// centavos, on the payment day in Brasília time. Terms are PixGate's own
// form of the cobv's calendario / valor blocks; docs/due-charges.md holds
// the rules and a table of cases that the tests read.
package due

import (
	"errors"

	"github.com/pixgate/pixgate/storage/money"
)

// DefaultDaysAfter is how many calendar days after its due date a charge
// can still be paid when the terms do not say (the BCB's
// validadeAposVencimento default).
const DefaultDaysAfter = 30

// MaxDiscountDates is how many dated discounts a charge may carry (the BCB's
// descontoDataFixa holds at most three).
const MaxDiscountDates = 3

// Terms are a due-date charge's terms.
type Terms struct {
	// Original is the amount due on the due date, before rebate, discount,
	// fine and interest (the BCB's valor.original). Not in the JSON form:
	// the charge's amount carries it.
	Original money.Money `json:"-"`
	// Date is the due date (the BCB's dataDeVencimento).
	Date Date `json:"date"`
	// DaysAfter is how many calendar days after the due date the charge
	// can still be paid (validadeAposVencimento; LastDay says which day
	// that makes); 0 in a request means DefaultDaysAfter, and Normalize
	// fills it in.
	DaysAfter int `json:"days_after"`
	// Fine is charged once when paid after the due date (multa).
	Fine *Fine `json:"fine,omitempty"`
	// Interest accrues per day late (juros).
	Interest *Interest `json:"interest,omitempty"`
	// Rebate is taken off whatever the payment day (abatimento).
	Rebate *Rebate `json:"rebate,omitempty"`
	// Discount is taken off when paid early (desconto).
	Discount *Discount `json:"discount,omitempty"`
}

// Value is a fixed amount or a percentage, as its mode says, in
// hundredths: centavos for fixed modes, hundredths of a percent for
// percent modes (2.5% is 250). In JSON it is a number with at most two
// decimals (reais, or a percentage), parsed exactly.
type Value int64

// Money is a fixed mode's value.
func (v Value) Money() money.Money { return money.Money(v) }

// MarshalJSON renders the value with two decimals.
func (v Value) MarshalJSON() ([]byte, error) { return money.Money(v).MarshalJSON() }

// UnmarshalJSON reads a JSON number exactly, at most two decimals.
func (v *Value) UnmarshalJSON(b []byte) error {
	var m money.Money
	if err := m.UnmarshalJSON(b); err != nil {
		return err
	}
	*v = Value(m)
	return nil
}

// Fine modes (the BCB's multa.modalidade 1 and 2).
const (
	FineFixed   = "fixed"   // a fixed amount
	FinePercent = "percent" // a percentage of the amount after rebate
)

// Fine is charged once, the first day after the due date.
type Fine struct {
	Mode  string `json:"mode"`
	Value Value  `json:"value"`
}

// Interest modes (the BCB's juros.modalidade: 1–4 with calendar days,
// 5–8 with business days).
const (
	InterestFixedPerDay     = "fixed_per_day"     // 1, 5
	InterestPercentPerDay   = "percent_per_day"   // 2, 6
	InterestPercentPerMonth = "percent_per_month" // 3, 7
	InterestPercentPerYear  = "percent_per_year"  // 4, 8
)

// Day counts.
const (
	CalendarDays = "calendar"
	BusinessDays = "business"
)

// Interest accrues for each day after the due date up to the payment day.
type Interest struct {
	Mode  string `json:"mode"`
	Value Value  `json:"value"`
	// Days is CalendarDays (the default) or BusinessDays.
	Days string `json:"days,omitempty"`
}

// Rebate modes (the BCB's abatimento.modalidade 1 and 2).
const (
	RebateFixed   = "fixed"
	RebatePercent = "percent"
)

// Rebate is taken off the original amount whatever the payment day.
type Rebate struct {
	Mode  string `json:"mode"`
	Value Value  `json:"value"`
}

// Discount modes (the BCB's desconto.modalidade 1–6).
const (
	DiscountFixedUntil    = "fixed_until"     // 1: a fixed amount until each date
	DiscountPercentUntil  = "percent_until"   // 2: a percentage until each date
	DiscountFixedPerDay   = "fixed_per_day"   // 3 (calendar), 4 (business): per day early
	DiscountPercentPerDay = "percent_per_day" // 5 (calendar), 6 (business): per day early
)

// Discount is taken off when paid on or before the due date.
type Discount struct {
	Mode string `json:"mode"`
	// Dates: for the "until" modes, up to MaxDiscountDates dates, each with
	// the discount that holds until it.
	Dates []DatedDiscount `json:"dates,omitempty"`
	// Value and Days: for the "per day" modes.
	Value *Value `json:"value,omitempty"`
	Days  string `json:"days,omitempty"`
}

// DatedDiscount is a discount that holds until a date, inclusive.
type DatedDiscount struct {
	Until Date  `json:"until"`
	Value Value `json:"value"`
}

// Breakdown is what a day asks, in parts: Total = Original − Rebate −
// Discount + Fine + Interest.
type Breakdown struct {
	Day      Date        `json:"day"`
	Original money.Money `json:"original"`
	Rebate   money.Money `json:"rebate"`
	Discount money.Money `json:"discount"`
	Fine     money.Money `json:"fine"`
	Interest money.Money `json:"interest"`
	Total    money.Money `json:"total"`
}

// ErrPastValidity: the day is after the last day the charge can be paid.
var ErrPastValidity = errors.New("the charge can no longer be paid: its validity after the due date has passed")

// FieldError names the member of the terms that is wrong, as a JSON path
// below the terms ("fine.value", "discount.dates[1].until"); the path is
// empty when the terms themselves are (not a JSON object).
type FieldError struct {
	Field   string
	Message string
}

// Error is the sentence "field message"; the message alone when Field is
// empty (the terms themselves).
func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + " " + e.Message
}
