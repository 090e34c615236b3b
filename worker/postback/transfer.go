package postback

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// statusCode is the family's {statusId, description} of a cash-out: 1 is
// success everywhere in the family; PixGate uses 3 for failure.
type statusCode struct {
	StatusID    int    `json:"statusId"`
	Description string `json:"description"`
}

// transferBody is a withdrawal (PAYMENT) or a refund (REFUND): both are
// money leaving the wallet and end COMPLETED or FAILED.
type transferBody struct {
	TransactionType string               `json:"transactionType"`
	TransactionID   *string              `json:"transactionId"`
	ExternalID      *string              `json:"external_id"`
	PixID           *string              `json:"pix_id,omitempty"` // refunds: the refunded charge
	Amount          money.Money          `json:"amount"`
	Fee             money.Money          `json:"fee"`
	Status          string               `json:"status"`
	StatusCode      statusCode           `json:"statusCode"`
	EndToEndID      *string              `json:"endToEndId"`
	DateApproval    *string              `json:"dateApproval"`
	CreditParty     *storage.CreditParty `json:"creditParty,omitempty"`
	FailureReason   *string              `json:"failure_reason,omitempty"`
	ID              uuid.UUID            `json:"id"`
}

func transferStatus(status, what string, reason *string) (statusCode, bool) {
	switch status {
	case storage.WithdrawalCompleted:
		return statusCode{1, what + " completed"}, true
	case storage.WithdrawalFailed:
		if reason != nil && *reason != "" {
			return statusCode{3, *reason}, true
		}
		return statusCode{3, what + " failed"}, true
	}
	return statusCode{}, false // PROCESSING: the integrator already knows
}

// ForWithdrawal is the postback of a finished withdrawal; ok is false while
// it is PROCESSING or when it has no postback URL.
func ForWithdrawal(w storage.Withdrawal) (Event, bool) {
	sc, final := transferStatus(w.Status, "payment", w.FailureReason)
	if !final || w.PostbackURL == nil || *w.PostbackURL == "" {
		return Event{}, false
	}
	cp := w.CreditParty
	b := transferBody{
		TransactionType: "PAYMENT", TransactionID: w.PixID, ExternalID: w.ExternalID,
		Amount: w.Amount, Fee: w.Fee, Status: w.Status, StatusCode: sc, EndToEndID: w.EndToEndID,
		DateApproval: familyDate(w.FinishedAt), CreditParty: &cp, ID: w.ID,
	}
	if w.Status == storage.WithdrawalFailed {
		b.FailureReason = w.FailureReason
	}
	return Event{ResourceType: "withdrawal", ResourceID: w.ID, IntegratorID: w.IntegratorID, Name: w.Status,
		URL: *w.PostbackURL, Body: body(b)}, true
}

// ForRefund is the postback of a finished refund of the charge known to the
// provider as chargePixID; ok is false while it is PROCESSING or when it has
// no postback URL. The money returns to the charge's payer, so there is no
// creditParty.
func ForRefund(r storage.Refund, chargePixID string) (Event, bool) {
	sc, final := transferStatus(r.Status, "refund", r.FailureReason)
	if !final || r.PostbackURL == nil || *r.PostbackURL == "" {
		return Event{}, false
	}
	b := transferBody{
		TransactionType: "REFUND", TransactionID: r.PixID, ExternalID: r.ExternalID, PixID: &chargePixID,
		Amount: r.Amount, Fee: r.Fee, Status: r.Status, StatusCode: sc, EndToEndID: r.EndToEndID,
		DateApproval: familyDate(r.FinishedAt), ID: r.ID,
	}
	if r.Status == storage.WithdrawalFailed {
		b.FailureReason = r.FailureReason
	}
	return Event{ResourceType: "refund", ResourceID: r.ID, IntegratorID: r.IntegratorID, Name: r.Status,
		URL: *r.PostbackURL, Body: body(b)}, true
}
