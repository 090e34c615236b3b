package postback

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
)

// The payout deadline postbacks (transactionType PAYMENT_DEADLINE,
// PixGate's own; docs/postbacks.md): sent once each, to the withdrawal's
// postbackUrl, while it is still PROCESSING.
const (
	DeadlineType = "PAYMENT_DEADLINE"
	// DeadlineResource is their resource type in the delivery log; the
	// resource id is the withdrawal's.
	DeadlineResource = "payout_deadline"
	DeadlineNear     = "DEADLINE_NEAR"
	DeadlineLate     = "LATE"
)

// deadlineBody is the withdrawal as its PAYMENT postback shows it, with
// the deadline's transactionType and status, and its due_at.
type deadlineBody struct {
	transferBody
	DueAt string `json:"due_at"`
}

// ForDeadline is the postback of a withdrawal near its deadline, or past
// it (late); ok is false when it has no deadline, is final, or has no
// postback URL.
func ForDeadline(t storage.Transfer, late bool) (Event, bool) {
	if t.Kind != storage.KindWithdrawal || t.DueAt == nil || t.Status.Final() || t.PostbackURL == nil || *t.PostbackURL == "" {
		return Event{}, false
	}
	name := DeadlineNear
	if late {
		name = DeadlineLate
	}
	b := deadlineBody{transferBody: transferBody{Transaction: contractview.TransferTransaction(t), Fee: t.Fee, ID: t.ID},
		DueAt: t.DueAt.UTC().Format(time.RFC3339)}
	b.TransactionType, b.Status = DeadlineType, name
	return Event{ResourceType: DeadlineResource, ResourceID: t.ID, IntegratorID: t.IntegratorID, Name: name,
		URL: *t.PostbackURL, Body: body(b)}, true
}
