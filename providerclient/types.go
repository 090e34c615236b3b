package providerclient

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Kind is what a transaction is, whatever the contract calls it.
type Kind string

// Kinds of transactions.
const (
	KindCharge Kind = "charge" // a PIX received against a charge (cash-in)
	KindPayout Kind = "payout" // a PIX sent to a key (cash-out, a withdrawal)
	KindRefund Kind = "refund" // a received PIX returned to its payer
)

// Valid reports whether k is one of the kinds above.
func (k Kind) Valid() bool { return k == KindCharge || k == KindPayout || k == KindRefund }

// Status is a transaction's state in PixGate's vocabulary, whatever the
// contract calls it. Charges: PENDING → PAID, or EXPIRED. Payouts and
// refunds: PROCESSING → COMPLETED | FAILED.
type Status string

// Statuses.
const (
	StatusPending    Status = "PENDING"
	StatusPaid       Status = "PAID"
	StatusExpired    Status = "EXPIRED"
	StatusProcessing Status = "PROCESSING"
	StatusCompleted  Status = "COMPLETED"
	StatusFailed     Status = "FAILED"
)

// Final reports whether s is an end state.
func (s Status) Final() bool {
	return s == StatusPaid || s == StatusExpired || s == StatusCompleted || s == StatusFailed
}

// Party is a payer: who is expected to pay a charge, or who paid it.
type Party struct {
	Name     string
	Document string // CPF or CNPJ, digits (CNPJ may hold letters)
	Email    string
	Bank     string // the payer's institution, when the provider says
}

// Recipient is who a payout goes to. KeyType is canonical (CPF, CNPJ,
// EMAIL, PHONE, EVP) and Key normalized, as package pix makes them.
type Recipient struct {
	Name, KeyType, Key, TaxID string
}

// ChargeRequest asks for a dynamic-QR charge.
type ChargeRequest struct {
	// ID is PixGate's id of the charge; the connector sends it where the
	// contract deduplicates (external_id, txid, correlationID).
	ID     string
	Amount money.Money
	Payer  Party
	// PayerQuestion is the text shown to the payer (solicitacaoPagador).
	PayerQuestion string
	// Expiration is how long the charge can be paid; zero is the
	// provider's default.
	Expiration time.Duration
	// NotifyURL is where the provider sends notifications, for contracts
	// that take it per call; others register it per account.
	NotifyURL string
	// Due, when set, makes it a due-date charge (the BCB's cobv): Amount
	// is Due.Original, Expiration is ignored (the charge can be paid until
	// the end of Due.LastDay in Brasília), and Payer's name and document
	// are required. Needs Capabilities.DueCharges.
	Due *due.Terms
}

// Charge is an issued charge.
type Charge struct {
	// ProviderID is the provider's id of the charge: PixGate's pix_id.
	ProviderID string
	// BRCode is the copy-and-paste PIX code.
	BRCode    string
	ExpiresAt time.Time
	// Expiration is the validity the provider answered (0: not said).
	Expiration time.Duration
	Status     Status
}

// PayoutRequest asks for a PIX to be sent.
type PayoutRequest struct {
	// ID is PixGate's id of the withdrawal (external_id, idEnvio,
	// correlationID): a repeated call never pays twice.
	ID          string
	Amount      money.Money
	Recipient   Recipient
	Description string
	NotifyURL   string
}

// Payout is a PIX send the provider accepted.
type Payout struct {
	ProviderID string
	Status     Status
}

// RefundRequest asks for a paid charge to be returned, in part or in full.
type RefundRequest struct {
	// ID is PixGate's id of the refund: a repeated call never refunds twice.
	ID string
	// Charge names the paid charge: its provider id and, for contracts
	// that refund by it, the end-to-end id of its payment.
	Charge      Ref
	Amount      money.Money
	Description string
	NotifyURL   string
}

// Refund is a refund the provider accepted.
type Refund struct {
	ProviderID string
	Status     Status
}

// Ref names a transaction to read: its kind, PixGate's id, the provider's
// id and, where the contract needs them, the end-to-end id of a charge's
// payment or the refunded charge. Connectors use what their contract needs.
type Ref struct {
	Kind       Kind
	ID         string
	ProviderID string
	EndToEndID string
	// Charge is the refunded charge of a refund.
	Charge *Ref
	// Due: the charge is a due-date charge (contracts that read those
	// elsewhere, as the BCB's cobv).
	Due bool
}

// Transaction is what the provider says of one transaction.
type Transaction struct {
	Kind Kind
	// ProviderID is the provider's id; ExternalID is PixGate's id as the
	// provider echoes it ("" when it does not).
	ProviderID string
	ExternalID string
	Status     Status
	Amount     money.Money
	// EndToEndID is the PIX end-to-end id, once the money moved.
	EndToEndID string
	// SettledAt is when a charge was paid or a transfer completed; zero
	// when the provider does not say.
	SettledAt time.Time
	// FailureReason is the provider's reason for a FAILED transfer.
	FailureReason string
	// Payer is who paid a charge, when the provider says; PayerAccount the
	// account the PIX came from (holder, tax id, institution), when it
	// says.
	Payer        *Party
	PayerAccount *Party
	// Description is the payer's message or the transfer's description.
	Description string
}

// Balance is the provider account's money.
type Balance struct {
	// Available can be spent; Pending is held (transfers in flight,
	// blocked amounts), as far as the provider tells them apart.
	Available, Pending money.Money
}

// Event is one claim of a notification: a transaction and the status the
// notification says it reached. It is a hint of what to Read, never a fact.
type Event struct {
	Kind       Kind
	ProviderID string
	// ID is PixGate's id when the notification carries it.
	ID     string
	Status Status
	// Payload is the part of the body that made the claim, as received.
	Payload []byte
}
