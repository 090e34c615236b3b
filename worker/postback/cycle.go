package postback

import (
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The transactionTypes of a recurrence's cycles and their attempts, as
// PixGate's extension of the family's notification shape.
const (
	TypeRecurrenceCycle   = "RECURRENCE_CYCLE"
	TypeRecurrenceAttempt = "RECURRENCE_ATTEMPT"
)

// cycleBody is a cycle's postback (docs/recurrences.md).
type cycleBody struct {
	TransactionType string      `json:"transactionType"`
	TransactionID   string      `json:"transactionId"`
	ID              uuid.UUID   `json:"id"`
	RecurrenceID    uuid.UUID   `json:"recurrence_id"`
	ExternalID      string      `json:"external_id"`
	N               int         `json:"n"`
	DueDate         due.Date    `json:"due_date"`
	Status          string      `json:"status"`
	Amount          money.Money `json:"amount"`
	Fee             money.Money `json:"fee"`
	NetAmount       money.Money `json:"net_amount"`
	ChargeID        *uuid.UUID  `json:"charge_id"`
	Retries         int         `json:"retries"`
	EndToEndID      *string     `json:"end_to_end_id"`
	RejectionCode   *string     `json:"rejection_code"`
	CancelledBy     *string     `json:"cancelled_by"`
	FailureReason   *string     `json:"failure_reason"`
	PaidAt          *time.Time  `json:"paid_at"`
}

// ForCycle is the postback of a cycle's current status, told once per
// status; ok is false without a postback URL, and for SCHEDULED (nothing
// has happened at the provider yet).
func ForCycle(c storage.Cycle, r storage.Recurrence) (Event, bool) {
	if c.Status == recurrence.CycleScheduled || r.PostbackURL == nil || *r.PostbackURL == "" {
		return Event{}, false
	}
	b := cycleBody{TransactionType: TypeRecurrenceCycle, ID: c.ID, RecurrenceID: r.ID, ExternalID: r.ExternalID, N: c.N,
		DueDate: c.DueDate, Status: string(c.Status), Amount: c.Amount, Fee: c.Fee, NetAmount: c.Amount - c.Fee,
		ChargeID: c.ChargeID, Retries: c.Retries, EndToEndID: c.EndToEndID, RejectionCode: c.RejectionCode,
		CancelledBy: c.CancelledBy, FailureReason: c.FailureReason, PaidAt: c.PaidAt}
	if c.ProviderID != nil {
		b.TransactionID = *c.ProviderID
	}
	return Event{ResourceType: "recurrence_cycle", ResourceID: c.ID, IntegratorID: r.IntegratorID, Name: string(c.Status),
		URL: *r.PostbackURL, Body: body(b)}, true
}

// attemptBody is an attempt's postback.
type attemptBody struct {
	TransactionType string    `json:"transactionType"`
	ID              uuid.UUID `json:"id"`
	RecurrenceID    uuid.UUID `json:"recurrence_id"`
	CycleID         uuid.UUID `json:"cycle_id"`
	N               int       `json:"n"`
	Seq             int       `json:"seq"`
	Kind            string    `json:"kind"`
	SettleOn        due.Date  `json:"settle_on"`
	Status          string    `json:"status"`
	RejectionCode   *string   `json:"rejection_code"`
	EndToEndID      *string   `json:"end_to_end_id"`
}

// ForAttempt is the postback of an attempt's current status, told once
// per status; ok is false without a postback URL.
func ForAttempt(a storage.CycleAttempt, c storage.Cycle, r storage.Recurrence) (Event, bool) {
	if r.PostbackURL == nil || *r.PostbackURL == "" {
		return Event{}, false
	}
	b := attemptBody{TransactionType: TypeRecurrenceAttempt, ID: a.ID, RecurrenceID: r.ID, CycleID: c.ID, N: c.N, Seq: a.Seq,
		Kind: string(a.Kind), SettleOn: a.SettleOn, Status: string(a.Status), RejectionCode: a.RejectionCode, EndToEndID: a.EndToEndID}
	return Event{ResourceType: "recurrence_attempt", ResourceID: a.ID, IntegratorID: r.IntegratorID, Name: string(a.Status),
		URL: *r.PostbackURL, Body: body(b)}, true
}
