// Package contract is the v2 contract of the BSPay / PixUp family of PIX
// providers, in one place: the wire types of its requests, answers and
// notifications, its transaction types and statuses, its date format and the
// field limits PixGate holds it to.
//
// PixGate speaks the contract three ways: as a client of its settlement
// provider (package providerclient), as the sandbox provider
// (providerclient/sandbox), and as a provider itself, on its /v2 surface and
// in the postbacks it sends integrators. All of them use these types, so the
// wire format is written once.
//
// Absent values are left out of what PixGate writes (omitempty), never sent
// as null: parsers of the family reject "email": null.
package contract

import "time"

// Transaction types, as the family names them.
const (
	TypeReceivePix = "RECEIVEPIX" // a charge paid in (cash-in)
	TypePayment    = "PAYMENT"    // a PIX sent (cash-out)
	TypeRefund     = "REFUND"     // a received PIX returned to its payer
)

// PixGate's extensions of the contract (ours: the family publishes no MED
// and no key lookup; PixGate's sandbox serves these, see docs/provider.md).
// An INFRACTION is a MED dispute over the PIX that paid a charge (pix_id):
// consult-transaction reads it by its transactionId, PathInfractions lists
// it and its changes are notified to the charge's postbackUrl. A MED_RETURN is the return the
// provider makes of an agreed infraction's money, read and notified like
// a REFUND.
const (
	TypeInfraction = "INFRACTION"
	TypeMedReturn  = "MED_RETURN"
)

// Infraction statuses (ours, after the BCB DICT's report statuses and
// analysis results): OPEN → AGREED | DISAGREED | CANCELLED.
const (
	StatusOpen      = "OPEN"
	StatusAgreed    = "AGREED"
	StatusDisagreed = "DISAGREED"
	StatusCancelled = "CANCELLED"
)

// PathKeyLookup is the key directory's route (ours): POST a KeyLookup, get
// a KeyEntry; 404 for a key the directory does not have.
const PathKeyLookup = "/v2/pix/keys/consult"

// PaymentTypePix is the paymentType of every transaction.
const PaymentTypePix = "PIX"

// Statuses. Charges: PENDING → PAID, or EXPIRED; payments and refunds:
// PROCESSING → COMPLETED | FAILED.
const (
	StatusPending    = "PENDING"
	StatusPaid       = "PAID"
	StatusExpired    = "EXPIRED"
	StatusProcessing = "PROCESSING"
	StatusCompleted  = "COMPLETED"
	StatusFailed     = "FAILED"
)

// Outcome codes of a payment or refund (statusCode.statusId). 1 is success
// everywhere in the family; failure codes differ between providers, and
// PixGate uses 3.
const (
	StatusIDCompleted = 1
	StatusIDFailed    = 3
)

// DateLayout is the family's date format, "YYYY-MM-DD HH:MM:SS", always in
// Brasília time.
const DateLayout = time.DateTime

// Brasilia is the family's clock: UTC−3 all year (Brazil has had no daylight
// saving time since 2019). A fixed zone needs no tzdata.
var Brasilia = time.FixedZone("BRT", -3*60*60)

// FormatDate renders t in the family's format; the zero time is "".
func FormatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(Brasilia).Format(DateLayout)
}

// FormatDatePtr is FormatDate of an optional time; nil is "".
func FormatDatePtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return FormatDate(*t)
}

// ParseDate reads a date of the family ("YYYY-MM-DD HH:MM:SS", Brasília
// time) or RFC 3339, which some providers send. Anything else is the zero
// time.
func ParseDate(s string) time.Time {
	if t, err := time.ParseInLocation(DateLayout, s, Brasilia); err == nil {
		return t
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	return time.Time{}
}
