package postback

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// transferBody is a transfer, money leaving the wallet: a withdrawal
// (PAYMENT) or a refund (REFUND), with PixGate's additions beside the
// family's fields.
type transferBody struct {
	contract.Transaction
	Fee           money.Money `json:"fee"`
	FailureReason *string     `json:"failure_reason,omitempty"`
	ID            uuid.UUID   `json:"id"`
}

// ForTransfer is the postback of a finished transfer, whose resource type
// is its kind; ok is false while it is PROCESSING (the status its creator
// was answered) or when it has no postback URL.
func ForTransfer(t storage.Transfer) (Event, bool) {
	if !t.Status.Final() || t.PostbackURL == nil || *t.PostbackURL == "" {
		return Event{}, false
	}
	b := transferBody{Transaction: contractview.TransferTransaction(t), Fee: t.Fee, ID: t.ID}
	if t.Status == storage.TransferFailed {
		b.FailureReason = t.FailureReason
	}
	return Event{ResourceType: string(t.Kind), ResourceID: t.ID, IntegratorID: t.IntegratorID, Name: string(t.Status),
		URL: *t.PostbackURL, Body: body(b)}, true
}
