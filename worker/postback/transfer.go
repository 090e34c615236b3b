package postback

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// transferBody is a withdrawal (PAYMENT) or a refund (REFUND), both money
// leaving the wallet, with PixGate's additions beside the family's fields.
type transferBody struct {
	contract.Transaction
	Fee           money.Money `json:"fee"`
	FailureReason *string     `json:"failure_reason,omitempty"`
	ID            uuid.UUID   `json:"id"`
}

// finished says whether a transfer reached a status integrators are told
// about: PROCESSING is the one they created.
func finished(status string) bool {
	return status == storage.WithdrawalCompleted || status == storage.WithdrawalFailed
}

// failureOf is the failure reason a body carries: only a FAILED one's.
func failureOf(status string, reason *string) *string {
	if status != storage.WithdrawalFailed {
		return nil
	}
	return reason
}

// ForWithdrawal is the postback of a finished withdrawal; ok is false while
// it is PROCESSING or when it has no postback URL.
func ForWithdrawal(w storage.Withdrawal) (Event, bool) {
	if !finished(w.Status) || w.PostbackURL == nil || *w.PostbackURL == "" {
		return Event{}, false
	}
	b := transferBody{Transaction: w.ContractTransaction(), Fee: w.Fee, FailureReason: failureOf(w.Status, w.FailureReason), ID: w.ID}
	return Event{ResourceType: "withdrawal", ResourceID: w.ID, IntegratorID: w.IntegratorID, Name: w.Status,
		URL: *w.PostbackURL, Body: body(b)}, true
}

// ForRefund is the postback of a finished refund of the charge known as
// chargePixID; ok is false while it is PROCESSING or when it has no postback
// URL.
func ForRefund(r storage.Refund, chargePixID string) (Event, bool) {
	if !finished(r.Status) || r.PostbackURL == nil || *r.PostbackURL == "" {
		return Event{}, false
	}
	b := transferBody{Transaction: r.ContractTransaction(chargePixID), Fee: r.Fee, FailureReason: failureOf(r.Status, r.FailureReason), ID: r.ID}
	return Event{ResourceType: "refund", ResourceID: r.ID, IntegratorID: r.IntegratorID, Name: r.Status,
		URL: *r.PostbackURL, Body: body(b)}, true
}
