package postback

import (
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// TypeRecurrence is the transactionType of a recurrence's postbacks:
// PixGate's extension of the family's notification shape (code written
// for the family ignores a type it does not know).
const TypeRecurrence = "RECURRENCE"

// recurrenceBody is a recurrence's postback (docs/recurrences.md).
type recurrenceBody struct {
	TransactionType string       `json:"transactionType"`
	TransactionID   string       `json:"transactionId"`
	ExternalID      string       `json:"external_id"`
	ID              uuid.UUID    `json:"id"`
	Status          string       `json:"status"`
	Journey         string       `json:"journey"`
	PayerMax        *money.Money `json:"payer_max"`
	CancelledBy     *string      `json:"cancelled_by"`
	EndCode         *string      `json:"end_code"`
	EndReason       *string      `json:"end_reason"`
	ApprovedAt      *time.Time   `json:"approved_at"`
	EndedAt         *time.Time   `json:"ended_at"`
}

// ForRecurrence is the postback of a recurrence's current status: each
// status past CREATED is told once (APPROVED, REJECTED, EXPIRED,
// CANCELLED, COMPLETED); ok is false without a postback URL or for
// CREATED and FAILED, which the request that made it was answered.
func ForRecurrence(r storage.Recurrence) (Event, bool) {
	if r.Status == recurrence.RecurrenceCreated || r.Status == recurrence.RecurrenceFailed || r.PostbackURL == nil || *r.PostbackURL == "" {
		return Event{}, false
	}
	b := recurrenceBody{TransactionType: TypeRecurrence, ExternalID: r.ExternalID, ID: r.ID, Status: string(r.Status),
		Journey: string(r.Journey), PayerMax: r.PayerMax, CancelledBy: r.CancelledBy, EndCode: r.EndCode, EndReason: r.EndReason,
		ApprovedAt: r.ApprovedAt, EndedAt: r.EndedAt}
	if r.ProviderID != nil {
		b.TransactionID = *r.ProviderID
	}
	return Event{ResourceType: "recurrence", ResourceID: r.ID, IntegratorID: r.IntegratorID, Name: string(r.Status),
		URL: *r.PostbackURL, Body: body(b)}, true
}
