package providerclient

import (
	"context"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// KindRecurrence is a Pix Automático recurrence (the payer's consent) as
// a notification's Event names it; it is read with
// Recurrences.ReadRecurrence, not Read.
const KindRecurrence Kind = "recurrence"

// Recurrences is a provider that serves Pix Automático (docs/recurrences.md):
// it registers a recurrence and asks its payer's consent (a QR Code, or a
// request pushed to the payer's bank), reads it back and cancels it. A
// connector offers it when Capabilities.Recurrences is true; the journeys
// it takes are Capabilities.Journeys.
type Recurrences interface {
	// CreateRecurrence registers the recurrence under PixGate's id (a
	// repeated call returns the one registered, never a second).
	CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error)
	// ReadRecurrence reads it by PixGate's id and the provider's; one the
	// provider does not know is ErrNotFound.
	ReadRecurrence(ctx context.Context, ref RecurrenceRef) (*Recurrence, error)
	// CancelRecurrence cancels it on the integrator's behalf; cancelling
	// one already cancelled is no error.
	CancelRecurrence(ctx context.Context, ref RecurrenceRef) error
}

// RecurrenceRequest asks for a recurrence.
type RecurrenceRequest struct {
	// ID is PixGate's id of the recurrence, where the contract
	// deduplicates.
	ID      string
	Journey recurrence.Journey
	// Payer is who consents and pays: name and document always; for the
	// push journey, the account the request goes to.
	Payer        Party
	PayerAccount *PayerAccount
	// Contract and Description are shown to the payer (the BCB's
	// vinculo.contrato and vinculo.objeto).
	Contract, Description string
	Calendar              recurrence.Calendar
	Amount                recurrence.Amount
	RetryPolicy           recurrence.RetryPolicy
	// ConsentExpiresAt is when an unanswered consent expires.
	ConsentExpiresAt time.Time
	// FirstPayment is the amount paid on approval, for the journeys that
	// have one (cycle 0).
	FirstPayment money.Money
	// FirstPaymentID is PixGate's id of the first payment's charge (a
	// uuid), where the contract deduplicates it, for the journeys that
	// have one.
	FirstPaymentID string
	NotifyURL      string
}

// PayerAccount is the payer's account a pushed consent request goes to.
type PayerAccount struct {
	ISPB, Branch, Number string
}

// Recurrence is what the provider says of a recurrence.
type Recurrence struct {
	ProviderID string
	// ExternalID is PixGate's id as the provider echoes it.
	ExternalID string
	Status     recurrence.RecurrenceStatus
	// QRCode is the BR Code the payer reads to consent, for the QR
	// journeys; with a first payment, the composite code that pays it too.
	QRCode string
	// FirstPaymentID is the provider's id of the first payment's charge,
	// read as an ordinary charge (Ref{Kind: KindCharge, ProviderID: ...}),
	// for the journeys that have one.
	FirstPaymentID string
	// PayerMax is the maximum the payer set when consenting, when the
	// provider says (0: none or unknown).
	PayerMax money.Money
	// ApprovedAt is when the payer consented.
	ApprovedAt time.Time
	// CancelledBy, EndCode and EndReason say who ended it and why
	// (rejected, cancelled), in PixGate's names and the BCB's codes.
	CancelledBy recurrence.Party
	EndCode     string
	EndReason   string
}

// RecurrenceRef names a recurrence to read or cancel.
type RecurrenceRef struct {
	ID, ProviderID string
}
