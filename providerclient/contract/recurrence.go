package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pixgate/pixgate/storage/money"
)

// Pix Automático's recurrences: PixGate's extension of the contract (ours:
// the family publishes none; PixGate's sandbox serves it, see
// docs/provider.md and docs/recurrences.md). A recurrence is the payer's
// consent to be charged on a calendar; it is a transaction of type
// TypeRecurrence, created at PathRecurrence under the caller's
// external_id, cancelled at PathRecurrenceCancel, read by
// consult-transaction and notified to its postbackUrl in the family's
// requestBody envelope. Its statuses are PixGate's recurrence statuses
// (storage/recurrence.RecurrenceStatus): CREATED → APPROVED | REJECTED |
// EXPIRED | CANCELLED, APPROVED → CANCELLED. Its days (start, end) are
// YYYY-MM-DD, days of Brasília; its instants are in DateLayout.
const (
	TypeRecurrence       = "RECURRENCE"
	PathRecurrence       = "/v2/pix/recurrence"
	PathRecurrenceCancel = "/v2/pix/recurrence/cancel"
)

// Recurrence field limits, the BCB's for the same fields (API Pix 2.9.0,
// RecBase.vinculo.contrato and .objeto, DadosBancarios; see
// docs/provider.md).
const (
	MaxContractLen              = 35 // contract
	MaxRecurrenceDescriptionLen = 35 // description
	MaxAccountLen               = 20 // payer.bank.account
	MaxBranchLen                = 4  // payer.bank.branch
)

// RecurrenceTerms are what the payer consents to: how they are asked
// (journey: QR or PUSH), the calendar (periodicity, start, and end or
// count), the amount (amount, fixed; or minimumAmount, the floor of a
// variable one; or neither), the retry policy, who pays, and what it is
// for. Names are PixGate's (storage/recurrence): journey QR, PUSH,
// QR_WITH_PAYMENT, QR_WITH_DUE_PAYMENT; periodicity WEEKLY, MONTHLY,
// QUARTERLY, SEMIANNUAL, ANNUAL; retryPolicy NONE, THREE_IN_7_DAYS.
type RecurrenceTerms struct {
	Journey       string          `json:"journey"`
	Periodicity   string          `json:"periodicity"`
	Start         string          `json:"start"`
	End           string          `json:"end,omitempty"`
	Count         int             `json:"count,omitempty"`
	Amount        money.Money     `json:"amount,omitempty"`
	MinimumAmount money.Money     `json:"minimumAmount,omitempty"`
	RetryPolicy   string          `json:"retryPolicy,omitempty"`
	Payer         RecurrencePayer `json:"payer"`
	Contract      string          `json:"contract,omitempty"`
	Description   string          `json:"description,omitempty"`
}

// RecurrencePayer is who consents and pays: a name and a CPF or CNPJ
// always, and for the PUSH journey the account the request is pushed to.
type RecurrencePayer struct {
	Name     string     `json:"name"`
	Document string     `json:"document"`
	Email    string     `json:"email,omitempty"`
	Bank     *PayerBank `json:"bank,omitempty"`
}

// PayerBank is the payer's account: the institution's ISPB (8 digits or
// capital letters), the branch (at most 4 characters, optional) and the
// account (at most 20).
type PayerBank struct {
	ISPB    string `json:"ispb"`
	Branch  string `json:"branch,omitempty"`
	Account string `json:"account"`
}

// RecurrenceRequest is the body of POST PathRecurrence. ExternalID is the
// caller's id of the recurrence (PixGate's): a repeated one returns the
// recurrence created the first time. ConsentExpiresAt, in DateLayout, is
// when an unanswered consent expires (default and at most 30 days on).
type RecurrenceRequest struct {
	ExternalID string `json:"external_id"`
	RecurrenceTerms
	ConsentExpiresAt string `json:"consentExpiresAt,omitempty"`
	PostbackURL      string `json:"postbackUrl,omitempty"`
	// FirstPayment is journey QR_WITH_PAYMENT's immediate charge (required
	// there, refused by the other journeys).
	FirstPayment *FirstPaymentRequest `json:"firstPayment,omitempty"`
}

// FirstPaymentRequest is the first payment of journey QR_WITH_PAYMENT: an
// ordinary charge of amount, paid when the payer approves, created under
// the caller's external_id (PixGate's id of its charge).
type FirstPaymentRequest struct {
	Amount     money.Money `json:"amount"`
	ExternalID string      `json:"external_id"`
}

// FirstPayment is the first payment's charge as the recurrence names it:
// its transactionId (read by consult-transaction as the RECEIVEPIX it is)
// and its BR Code, the recurrence's composite one.
type FirstPayment struct {
	TransactionID string `json:"transactionId"`
	QRCode        string `json:"qrcode,omitempty"`
}

// RecurrenceAnswer is the answer of PathRecurrence and
// PathRecurrenceCancel: the recurrence's transactionId, the caller's
// external_id, its status and, for a QR journey, the BR Code the payer
// reads to consent; with a first payment, its charge.
type RecurrenceAnswer struct {
	TransactionID string        `json:"transactionId"`
	ExternalID    string        `json:"external_id,omitempty"`
	Status        string        `json:"status"`
	QRCode        string        `json:"qrcode,omitempty"`
	FirstPayment  *FirstPayment `json:"firstPayment,omitempty"`
}

// RecurrenceCancel is the body of POST PathRecurrenceCancel: the
// integrator cancels the recurrence.
type RecurrenceCancel struct {
	TransactionID string `json:"transactionId"`
}

// Recurrence is a RECURRENCE as consult-transaction answers it and
// notifications carry it (inside an Envelope): its terms, its status and
// what the payer's side said. PayerMax is the maximum the payer set when
// consenting (a variable recurrence's); ApprovedAt (DateLayout) when they
// consented; CancelledBy who cancelled it (PAYER, PAYER_BANK, INTEGRATOR,
// PROVIDER); EndCode and EndReason the BCB's code of a rejection (AP13,
// AP14) or a cancellation (ACCL … SLDB) and its description.
type Recurrence struct {
	TransactionType string `json:"transactionType"`
	TransactionID   string `json:"transactionId"`
	ExternalID      string `json:"external_id,omitempty"`
	Status          string `json:"status"`
	RecurrenceTerms
	ConsentExpiresAt string      `json:"consentExpiresAt,omitempty"`
	QRCode           string      `json:"qrcode,omitempty"`
	DateCreated      string      `json:"dateCreated,omitempty"`
	PayerMax         money.Money `json:"payerMax,omitempty"`
	ApprovedAt       string      `json:"approvedAt,omitempty"`
	CancelledBy      string      `json:"cancelledBy,omitempty"`
	EndCode          string      `json:"endCode,omitempty"`
	EndReason        string      `json:"endReason,omitempty"`
	// FirstPayment is journey QR_WITH_PAYMENT's charge.
	FirstPayment *FirstPayment `json:"firstPayment,omitempty"`
}

// DecodeRecurrence reads a consult-transaction answer or a notification of
// a recurrence, wrapped in "requestBody" or not, as DecodeTransaction
// reads a transaction: each member from requestBody when there, else from
// the top level; type and status uppercased. It fails when the body is not
// JSON, has no status, or a member has the wrong type (an amount written
// as a string among them: this extension is PixGate's own, and writes
// numbers).
func DecodeRecurrence(body []byte) (Recurrence, error) {
	var outer struct {
		Recurrence
		RequestBody json.RawMessage `json:"requestBody"`
	}
	if err := json.Unmarshal(body, &outer); err != nil {
		return Recurrence{}, fmt.Errorf("decode recurrence: %w", err)
	}
	rec := outer.Recurrence
	if inner := outer.RequestBody; len(inner) > 0 && inner[0] == '{' {
		if err := json.Unmarshal(inner, &rec); err != nil {
			return Recurrence{}, fmt.Errorf("decode recurrence: requestBody: %w", err)
		}
	}
	rec.TransactionType = strings.ToUpper(strings.TrimSpace(rec.TransactionType))
	rec.Status = strings.ToUpper(strings.TrimSpace(rec.Status))
	if rec.Status == "" {
		return Recurrence{}, errors.New("decode recurrence: no status")
	}
	return rec, nil
}
