package wooviapi

// Due-date charges: a charge of type OVERDUE (ChargePayload.type) has a
// due date daysForDueDate days after the day it is created, can still be
// paid daysAfterDueDate days after it, and takes fines, interests and
// discountSettings, which Woovi considers for that type only. Percentages
// are in basis points (100 is 1.00%), amounts in centavos. Sources:
// Woovi's OpenAPI document (ChargePayload) and its discount simulator
// (github.com/woovibr/woovi-developers,
// src/components/ChargeDiscountSimulator/simulate.ts), see
// docs/provider.md, "Due-date charges (woovi)".

// Charge types (ChargePayload.type, Charge.type).
const (
	ChargeDynamic = "DYNAMIC" // a charge without a due date (the BCB's cob)
	ChargeOverdue = "OVERDUE" // a charge with a due date (the BCB's cobv)
)

// Rate types (fines.type, interests.type). A fine of type FIXED is in
// centavos, one of type PERCENTAGE (the default) in basis points of the
// charge's value; interests are basis points of the charge's value per
// calendar day late.
const (
	RateFixed      = "FIXED"
	RatePercentage = "PERCENTAGE"
)

// Rate is a fine or the interests of a due-date charge.
type Rate struct {
	Value int64  `json:"value"`
	Type  string `json:"type,omitempty"`
}

// Discount modalities (discountSettings.modality), the BCB's cobv
// desconto modalities 1 to 6 in that order.
const (
	DiscountFixedUntil               = "FIXED_VALUE_UNTIL_SPECIFIED_DATE"
	DiscountPercentageUntil          = "PERCENTAGE_UNTIL_SPECIFIED_DATE"
	DiscountValuePerRunningDay       = "VALUE_PER_RUNNING_DAY_ADVANCE"
	DiscountValuePerBusinessDay      = "VALUE_PER_BUSINESS_DAY_ADVANCE"
	DiscountPercentagePerRunningDay  = "PERCENTAGE_PER_RUNNING_DAY_ADVANCE"
	DiscountPercentagePerBusinessDay = "PERCENTAGE_PER_BUSINESS_DAY_ADVANCE"
)

// DiscountSettings is a due-date charge's discount, given only when paid
// before the due date: the "until" modalities take DiscountFixedDate, the
// per-day ones Value (at least 1), per day paid early.
type DiscountSettings struct {
	Modality          string              `json:"modality"`
	DiscountFixedDate []DiscountFixedDate `json:"discountFixedDate,omitempty"`
	Value             int64               `json:"value,omitempty"`
}

// DiscountFixedDate is a discount that holds for payments up to
// DaysActive days (at least 1) after the day the charge is created.
type DiscountFixedDate struct {
	DaysActive int   `json:"daysActive"`
	Value      int64 `json:"value"`
}
