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
)

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
