package postback

import (
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// TransactionTypeBatch is a withdrawal batch's postback's transactionType.
const TransactionTypeBatch = "PAYMENT_BATCH"

// batchBody is a finished withdrawal batch: PixGate's own (the family has
// no batches), in the family's envelope, with the totals of its items.
type batchBody struct {
	TransactionType string      `json:"transactionType"`
	ID              uuid.UUID   `json:"id"`
	ExternalID      string      `json:"external_id"`
	Status          string      `json:"status"`
	Count           int         `json:"count"`
	Amount          money.Money `json:"amount"`
	Fee             money.Money `json:"fee"`
	Completed       int         `json:"completed"`
	Failed          int         `json:"failed"`
	CompletedAmount money.Money `json:"completed_amount"`
	FailedAmount    money.Money `json:"failed_amount"`
	RejectionReason *string     `json:"rejection_reason,omitempty"`
	FinishedAt      *time.Time  `json:"finished_at"`
}

// ForBatch is the postback of a finished batch (COMPLETED: every item
// COMPLETED or FAILED, each of which had its own; REJECTED: rejected or
// expired before approval); ok is false while it is not finished or when
// it has no postback URL.
func ForBatch(b storage.WithdrawalBatch) (Event, bool) {
	if (b.Status != storage.BatchCompleted && b.Status != storage.BatchRejected) || b.PostbackURL == nil || *b.PostbackURL == "" {
		return Event{}, false
	}
	return Event{ResourceType: "withdrawal_batch", ResourceID: b.ID, IntegratorID: b.IntegratorID, Name: b.Status, URL: *b.PostbackURL,
		Body: body(batchBody{TransactionType: TransactionTypeBatch, ID: b.ID, ExternalID: b.ExternalID, Status: b.Status, Count: b.Count,
			Amount: b.Amount, Fee: b.Fee, Completed: b.Completed, Failed: b.Failed, CompletedAmount: b.CompletedAmount,
			FailedAmount: b.FailedAmount, RejectionReason: b.RejectionReason, FinishedAt: b.FinishedAt})}, true
}
