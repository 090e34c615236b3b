package payments

import "errors"

// The payment rules a request can break. A *RuleError carries one of them.
var (
	// ErrAmountNotAboveFee: a charge must bring in more than its cash-in fee.
	ErrAmountNotAboveFee = errors.New("amount does not exceed the cash-in fee")
	// ErrChargeNotPaid: only a PAID charge can be refunded.
	ErrChargeNotPaid = errors.New("the charge is not PAID")
	// ErrRefundWindowClosed: a charge can be refunded for RefundWindow after
	// its payment.
	ErrRefundWindowClosed = errors.New("the charge was paid too long ago to be refunded")
	// ErrRefundExceedsCharge: the refunds of a charge never add up to more
	// than its amount.
	ErrRefundExceedsCharge = errors.New("the refund exceeds what is left of the charge")
	// ErrChargeDisputed: a charge under an open MED infraction cannot be
	// refunded (its money is blocked, and the MED may return it).
	ErrChargeDisputed = errors.New("the charge is under an open MED infraction")
	// ErrKeyNotFound: the withdrawal's key is not in the DICT.
	ErrKeyNotFound = errors.New("the PIX key does not exist")
	// ErrKeyFraudMarked: the DICT marks the withdrawal's key for fraud.
	ErrKeyFraudMarked = errors.New("the PIX key is marked for fraud")
	// ErrNotSameHolder: a same-holder integrator's withdrawal to a key of
	// someone other than creditParty.taxId.
	ErrNotSameHolder = errors.New("the PIX key belongs to someone other than creditParty.taxId")
	// ErrOverProviderLimit: no provider of the integrator's withdrawal
	// route takes a PIX of the amount (its per-PIX limit, Res. BCB
	// 494-498/2025).
	ErrOverProviderLimit = errors.New("the amount is above the per-PIX limit of every provider of the route")
)

// Rule codes: the error code a refusal is answered with, when it is not
// the generic validation_failed.
var ruleCodes = map[error]string{
	ErrChargeDisputed: "infraction_open", ErrKeyNotFound: "key_not_found",
	ErrKeyFraudMarked: "key_fraud_marked", ErrNotSameHolder: "not_same_holder",
	ErrJourneyUnsupported: "journey_not_supported", ErrOverProviderLimit: "over_provider_limit",
}

// Code is the error code of the rule e breaks ("" for the generic one).
func (e *RuleError) Code() string { return ruleCodes[e.Rule] }

// RuleError is a request that a payment rule refuses: well formed, but not
// allowed. Field names the request field at fault; Detail completes a
// sentence that starts with it ("amount must exceed the cash-in fee of
// R$ 1.00"). Nothing was written.
type RuleError struct {
	Rule   error
	Field  string
	Detail string
}

func (e *RuleError) Error() string { return e.Field + " " + e.Detail }

// Unwrap exposes the rule to errors.Is.
func (e *RuleError) Unwrap() error { return e.Rule }
