package pixgate

// DueTerms make a charge a due-date charge (the BCB's cobv): it can be
// paid until its due date plus DaysAfter, and asks, on the day it is paid
// (Brasília), its amount less Rebate and any Discount for paying early,
// or plus Fine and Interest for paying late. PixGate's docs/due-charges.md
// holds the rules. Values are Amounts: reais for the "fixed…" modes, a
// percentage for the "percent…" modes (Amount(250) is 2.50%).
type DueTerms struct {
	// Date is the due date, YYYY-MM-DD, today or later in Brasília.
	Date string `json:"date"`
	// DaysAfter is how many calendar days after the due date it can still
	// be paid; 0 is 30.
	DaysAfter int          `json:"days_after,omitempty"`
	Fine      *DueFine     `json:"fine,omitempty"`
	Interest  *DueInterest `json:"interest,omitempty"`
	Rebate    *DueRebate   `json:"rebate,omitempty"`
	Discount  *DueDiscount `json:"discount,omitempty"`
}

// DueFine is charged once when paid after the due date: Mode "fixed" or
// "percent".
type DueFine struct {
	Mode  string `json:"mode"`
	Value Amount `json:"value"`
}

// DueInterest accrues per day late: Mode "fixed_per_day",
// "percent_per_day", "percent_per_month" or "percent_per_year", counting
// Days "calendar" (the default) or "business".
type DueInterest struct {
	Mode  string `json:"mode"`
	Value Amount `json:"value"`
	Days  string `json:"days,omitempty"`
}

// DueRebate is taken off whatever the day: Mode "fixed" or "percent".
type DueRebate struct {
	Mode  string `json:"mode"`
	Value Amount `json:"value"`
}

// DueDiscount is taken off when paid on or before the due date: Mode
// "fixed_until" or "percent_until" with Dates (up to three), or
// "fixed_per_day" or "percent_per_day" with Value per day early and Days.
type DueDiscount struct {
	Mode  string          `json:"mode"`
	Dates []DatedDiscount `json:"dates,omitempty"`
	Value *Amount         `json:"value,omitempty"`
	Days  string          `json:"days,omitempty"`
}

// DatedDiscount holds until Until (YYYY-MM-DD), inclusive.
type DatedDiscount struct {
	Until string `json:"until"`
	Value Amount `json:"value"`
}

// ChargeDue is a due-date charge's terms as PixGate keeps them, its
// original amount, its last payable day and, while it is PENDING, what it
// asks today.
type ChargeDue struct {
	DueTerms
	OriginalAmount Amount        `json:"original_amount"`
	LastDay        string        `json:"last_day"`
	AmountDue      *DueBreakdown `json:"amount_due"`
}

// DueBreakdown is what one day asks: Total = Original − Rebate − Discount
// + Fine + Interest.
type DueBreakdown struct {
	Day      string `json:"day"`
	Original Amount `json:"original"`
	Rebate   Amount `json:"rebate"`
	Discount Amount `json:"discount"`
	Fine     Amount `json:"fine"`
	Interest Amount `json:"interest"`
	Total    Amount `json:"total"`
}
