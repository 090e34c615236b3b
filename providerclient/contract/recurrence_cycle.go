package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pixgate/pixgate/storage/money"
)

// A recurrence's cycles: PixGate's extension of the contract, as its
// recurrences are (ours: the family publishes none; PixGate's sandbox
// serves it, see docs/provider.md and docs/recurrences.md). A cycle is one
// debit of an approved recurrence (the BCB's cobr), a transaction of type
// TypeRecurrenceCycle, created at PathRecurrenceCycle under the caller's
// external_id 2 to 10 days before its due date, retried at
// PathRecurrenceCycleRetry, cancelled at PathRecurrenceCycleCancel, read by
// consult-transaction and notified to its postbackUrl in the family's
// requestBody envelope. Its statuses are PixGate's cycle statuses
// (storage/recurrence.CycleStatus: CREATED, ACTIVE, PAID, EXPIRED,
// REJECTED, CANCELLED), its attempts' PixGate's attempt statuses
// (REQUESTED, SCHEDULED, PAID, REJECTED, EXPIRED, CANCELLED) and kinds
// (AGND, NTAG, RIFL). Its days are YYYY-MM-DD, days of Brasília; its
// instants are in DateLayout.
const (
	TypeRecurrenceCycle       = "RECURRENCE_CYCLE"
	PathRecurrenceCycle       = "/v2/pix/recurrence/cycle"
	PathRecurrenceCycleRetry  = "/v2/pix/recurrence/cycle/retry"
	PathRecurrenceCycleCancel = "/v2/pix/recurrence/cycle/cancel"
)

// RecurrenceCycleRequest is the body of POST PathRecurrenceCycle:
// TransactionID is the recurrence's, ExternalID the caller's id of the
// cycle (a repeated one returns the cycle created the first time), DueDate
// the cycle's due date in its recurrence's calendar.
type RecurrenceCycleRequest struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id"`
	DueDate       string      `json:"dueDate"`
	Amount        money.Money `json:"amount"`
	Description   string      `json:"description,omitempty"`
	PostbackURL   string      `json:"postbackUrl,omitempty"`
}

// RecurrenceCycleRetry is the body of POST PathRecurrenceCycleRetry: the
// receiver asks the cycle's payment be tried again, to settle on Date.
type RecurrenceCycleRetry struct {
	TransactionID string `json:"transactionId"`
	Date          string `json:"date"`
}

// RecurrenceCycleCancel is the body of POST PathRecurrenceCycleCancel.
type RecurrenceCycleCancel struct {
	TransactionID string `json:"transactionId"`
}

// RecurrenceCycle is a RECURRENCE_CYCLE as every cycle route and
// consult-transaction answer it and notifications carry it (inside an
// Envelope). RecurrenceID is its recurrence's transactionId; Retries the
// retries asked; RejectionCode the BCB's code that ended it (REJECTED);
// CancelledBy who cancelled it (PAYER, PAYER_BANK, INTEGRATOR, PROVIDER);
// EndToEndID, PaidAt (DateLayout) and Payer its payment's (PAID).
type RecurrenceCycle struct {
	TransactionType string         `json:"transactionType"`
	TransactionID   string         `json:"transactionId"`
	ExternalID      string         `json:"external_id,omitempty"`
	RecurrenceID    string         `json:"recurrenceId"`
	Status          string         `json:"status"`
	DueDate         string         `json:"dueDate"`
	Amount          money.Money    `json:"amount"`
	Retries         int            `json:"retries"`
	Attempts        []CycleAttempt `json:"attempts"`
	RejectionCode   string         `json:"rejectionCode,omitempty"`
	CancelledBy     string         `json:"cancelledBy,omitempty"`
	EndToEndID      string         `json:"endToEndId,omitempty"`
	PaidAt          string         `json:"paidAt,omitempty"`
	DateCreated     string         `json:"dateCreated,omitempty"`
	Payer           *Party         `json:"payer,omitempty"`
}

// CycleAttempt is one try at settling a cycle: its kind (type), the day
// it settles on, its status, the BCB's code that rejected it, and its
// payment's endToEndId once paid.
type CycleAttempt struct {
	Type          string `json:"type"`
	SettleOn      string `json:"settleOn"`
	Status        string `json:"status"`
	RejectionCode string `json:"rejectionCode,omitempty"`
	EndToEndID    string `json:"endToEndId,omitempty"`
}

// DecodeRecurrenceCycle reads a cycle route's or consult-transaction's
// answer or a notification of a cycle, wrapped in "requestBody" or not,
// as DecodeRecurrence reads a recurrence: type, status and the attempts'
// types and statuses uppercased. It fails when the body is not JSON, has
// no status, or a member has the wrong type.
func DecodeRecurrenceCycle(body []byte) (RecurrenceCycle, error) {
	var outer struct {
		RecurrenceCycle
		RequestBody json.RawMessage `json:"requestBody"`
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		return RecurrenceCycle{}, fmt.Errorf("decode recurrence cycle: %w", err)
	}
	c := outer.RecurrenceCycle
	if inner := outer.RequestBody; len(inner) > 0 && inner[0] == '{' {
		if err := json.Unmarshal(inner, &c); err != nil {
			return RecurrenceCycle{}, fmt.Errorf("decode recurrence cycle: requestBody: %w", err)
		}
	}
	c.TransactionType = strings.ToUpper(strings.TrimSpace(c.TransactionType))
	if c.Status = strings.ToUpper(strings.TrimSpace(c.Status)); c.Status == "" {
		return RecurrenceCycle{}, errors.New("decode recurrence cycle: no status")
	}
	for i := range c.Attempts {
		a := &c.Attempts[i]
		a.Type, a.Status = strings.ToUpper(strings.TrimSpace(a.Type)), strings.ToUpper(strings.TrimSpace(a.Status))
	}
	return c, nil
}
