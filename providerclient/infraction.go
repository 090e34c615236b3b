package providerclient

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// KindInfraction is a notification's claim about a MED infraction (see
// Infraction), and KindMedReturn a received PIX the provider returned to
// its payer under the MED: the BCB API Pix's devolução of natureza
// MED_FRAUDE or MED_OPERACIONAL, which the receiving provider makes itself
// when an infraction is agreed (bacen/pix-api 2.9.0, DevolucaoNatureza).
const (
	KindInfraction Kind = "infraction"
	KindMedReturn  Kind = "med_return"
)

// InfractionStatus is where a MED infraction stands, in the words of the
// BCB's DICT (bacen/pix-dict-api 1.8.0: InfractionReportStatus OPEN,
// ACKNOWLEDGED, CLOSED, CANCELLED; AnalysisResult AGREED, DISAGREED), with
// the analysis result folded into the closed status.
type InfractionStatus string

// Infraction statuses.
const (
	InfractionOpen      InfractionStatus = "OPEN"      // reported (or acknowledged), under analysis
	InfractionAgreed    InfractionStatus = "AGREED"    // closed: the dispute stands, the money goes back to the payer
	InfractionDisagreed InfractionStatus = "DISAGREED" // closed: the dispute failed, the money is released
	InfractionCancelled InfractionStatus = "CANCELLED" // withdrawn by whoever reported it
)

// InfractionRef names an infraction for the provider: its id and, for
// contracts that reach infractions through the disputed PIX, the charge.
type InfractionRef struct {
	ProviderID string
	Charge     Ref
}

// Infraction is a MED dispute over the PIX that paid a charge, as the
// provider reports it.
type Infraction struct {
	ProviderID string
	// Charge names the disputed charge as the provider knows it: its id,
	// or the end-to-end id of the PIX that paid it.
	Charge Ref
	// Amount is what the payer disputes.
	Amount money.Money
	Status InfractionStatus
	// Reason is the payer's report; Analysis the provider's words on
	// closing it; Defense the defense the provider holds, if any.
	Reason, Analysis, Defense string
	// ReportedAt is when it was opened, DueAt when the analysis is due,
	// ClosedAt when it closed; zero when the provider does not say.
	ReportedAt, DueAt, ClosedAt time.Time
	// Return is the MED return the provider made of an agreed infraction,
	// once it says (Kind KindMedReturn); nil before.
	Return *Transaction
}

// KeyHolder is who a PIX key belongs to, as the DICT tells the provider
// (bacen/pix-dict-api 1.8.0, getEntry: Key, KeyType, Account.Participant,
// Owner.Name, Owner.TaxIdNumber; Statistics counters REPORTED_FRAUDS and
// CONFIRMED_FRAUDS).
type KeyHolder struct {
	// Key and KeyType are canonical (package pix).
	Key, KeyType string
	// Name is the holder's name as PIX apps show it: a person's name, a
	// company's trade name when it has one.
	Name string
	// Document is the holder's CPF or CNPJ as the provider gives it, digits
	// only; a provider may mask part of it with '*'.
	Document string
	// Institution is the holder's institution (its name), ISPB its
	// 8-digit ISPB.
	Institution, ISPB string
	// FraudMarked: the DICT counts reported or confirmed frauds against the
	// key; a withdrawal to it is refused.
	FraudMarked bool
}
