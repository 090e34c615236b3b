package pixgate

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
	"time"
)

// Payer is who pays a charge. Name and Document (a CPF or CNPJ) are
// required.
type Payer struct {
	Name     string `json:"name"`
	Document string `json:"document"`
	Email    string `json:"email,omitempty"`
}

// ChargeRequest creates a charge on either surface.
type ChargeRequest struct {
	Amount Amount `json:"amount"`
	Payer  Payer  `json:"payer"`
	// ExternalID is the integrator's reference and PixGate's idempotency
	// key. Left empty, the client sets one ("chg-" and 20 random
	// characters, the form PixGate uses) before the first attempt.
	ExternalID    string         `json:"external_id,omitempty"`
	PostbackURL   string         `json:"postbackUrl,omitempty"`
	PayerQuestion string         `json:"payerQuestion,omitempty"`
	Split         map[string]any `json:"split,omitempty"`
	// Expiration is how long the charge can be paid, in seconds (60 to
	// 604800); zero leaves it to the provider.
	Expiration int `json:"expiration,omitempty"`
	// Due, when set, makes it a due-date charge: Amount is then what it
	// asks on its due date, Payer.Name is required and Expiration is not
	// taken.
	Due *DueTerms `json:"due,omitempty"`
}

// Charge is a v1 charge record.
type Charge struct {
	ID             string         `json:"id"`
	ExternalID     string         `json:"external_id"`
	Amount         Amount         `json:"amount"`
	Fee            Amount         `json:"fee"`
	NetAmount      Amount         `json:"net_amount"`
	Status         string         `json:"status"`
	PixID          string         `json:"pix_id"`
	QRCode         string         `json:"qrcode"`
	ExpiresAt      *time.Time     `json:"expires_at"`
	Payer          Payer          `json:"payer"`
	PayerQuestion  string         `json:"payerQuestion"`
	PostbackURL    string         `json:"postbackUrl"`
	Split          map[string]any `json:"split"`
	RefundedAmount Amount         `json:"refunded_amount"`
	FailureReason  string         `json:"failure_reason"`
	CreatedAt      time.Time      `json:"created_at"`
	UpdatedAt      time.Time      `json:"updated_at"`
	PaidAt         *time.Time     `json:"paid_at"`
	EndToEndID     string         `json:"end_to_end_id"`
	AvailableAt    *time.Time     `json:"available_at"`
	// Provider is the settlement provider that holds the charge.
	Provider string `json:"provider"`
	// Due is a due-date charge's terms and what they ask today; nil for an
	// immediate charge. Once paid, Amount and Fee are what was paid that
	// day and the fee on it.
	Due *ChargeDue `json:"due"`
	// Replayed is true when the create was answered with an existing
	// charge (the same request made before with this external_id).
	Replayed bool `json:"-"`
}

// Charge statuses.
const (
	ChargePending  = "PENDING"
	ChargePaid     = "PAID"
	ChargeExpired  = "EXPIRED"
	ChargeFailed   = "FAILED"
	ChargeRefunded = "REFUNDED"
)

// CreditParty is who receives a withdrawal.
type CreditParty struct {
	Name string `json:"name"`
	// KeyType is CPF, CNPJ, EMAIL, PHONE or EVP.
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	TaxID   string `json:"taxId"`
}

// WithdrawalRequest sends a PIX from the wallet (v1 withdrawal, v2
// payment).
type WithdrawalRequest struct {
	Amount      Amount      `json:"amount"`
	CreditParty CreditParty `json:"creditParty"`
	// ExternalID is the idempotency key; left empty, the client sets one
	// ("wdr-" and 20 random characters) before the first attempt.
	ExternalID  string `json:"external_id,omitempty"`
	Description string `json:"description,omitempty"`
	PostbackURL string `json:"postbackUrl,omitempty"`
}

// Withdrawal is a v1 withdrawal record.
type Withdrawal struct {
	ID            string      `json:"id"`
	ExternalID    string      `json:"external_id"`
	Amount        Amount      `json:"amount"`
	Fee           Amount      `json:"fee"`
	Total         Amount      `json:"total"`
	Status        string      `json:"status"`
	CreditParty   CreditParty `json:"creditParty"`
	Description   string      `json:"description"`
	PostbackURL   string      `json:"postbackUrl"`
	PixID         string      `json:"pix_id"`
	EndToEndID    string      `json:"end_to_end_id"`
	FailureReason string      `json:"failure_reason"`
	CreatedAt     time.Time   `json:"created_at"`
	UpdatedAt     time.Time   `json:"updated_at"`
	FinishedAt    *time.Time  `json:"finished_at"`
	// Provider is the settlement provider that sends it.
	Provider string `json:"provider"`
	// Replayed is true when the create was answered with an existing one.
	Replayed bool `json:"-"`
}

// Refund is a v1 refund record.
type Refund struct {
	ID          string `json:"id"`
	ExternalID  string `json:"external_id"`
	ChargeID    string `json:"charge_id"`
	ChargePixID string `json:"charge_pix_id"`
	Amount      Amount `json:"amount"`
	// Fee is the cash-out fee; Total, amount + fee, what left the wallet.
	Fee           Amount     `json:"fee"`
	Total         Amount     `json:"total"`
	Status        string     `json:"status"`
	Description   string     `json:"description"`
	PixID         string     `json:"pix_id"`
	EndToEndID    string     `json:"end_to_end_id"`
	FailureReason string     `json:"failure_reason"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	FinishedAt    *time.Time `json:"finished_at"`
	// Provider is the settlement provider that sends it: the charge's.
	Provider string `json:"provider"`
	// Replayed is true when the create was answered with an existing one.
	Replayed bool `json:"-"`
}

// Withdrawal and refund statuses.
const (
	TransferProcessing = "PROCESSING"
	TransferCompleted  = "COMPLETED"
	TransferFailed     = "FAILED"
)

// Balance is the v1 balance and the integrator's fee rules.
type Balance struct {
	Available Amount `json:"available_balance"`
	Pending   Amount `json:"pending_balance"`
	Reserved  Amount `json:"reserved_balance"`
	// Blocked is frozen under open MED infractions.
	Blocked  Amount `json:"blocked_balance"`
	Currency string `json:"currency"`
	Account  struct {
		ID    int64  `json:"id"`
		Name  string `json:"name"`
		Email string `json:"email"`
	} `json:"account"`
	Fees struct {
		CashIn  FeeRule `json:"cashin"`
		CashOut FeeRule `json:"cashout"`
	} `json:"fees"`
}

// FeeRule is a fee: Type "percent" (Value a percentage, up to four
// decimals) or "fixed" (Value in reais).
type FeeRule struct {
	Type  string  `json:"type"`
	Value float64 `json:"value"`
	Note  string  `json:"note"`
}

// ListParams select a page of a v1 list. Zero values are left out.
type ListParams struct {
	PerPage int
	Status  string
	// Cursor is the NextCursor of the previous page.
	Cursor string
}

// Page is one page of a v1 list, newest first.
type Page[T any] struct {
	Data []T `json:"data"`
	Meta struct {
		PerPage    int    `json:"per_page"`
		NextCursor string `json:"next_cursor"`
	} `json:"meta"`
}

// NewExternalID makes an external_id: prefix and 20 random characters
// (100 bits).
func NewExternalID(prefix string) string {
	b := make([]byte, 13)
	_, _ = rand.Read(b)
	return prefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))[:20]
}

// ensureID makes an external_id when a create has none, before its first
// attempt, so that every attempt is the same record.
func ensureID(id *string, prefix string) {
	if *id == "" {
		*id = NewExternalID(prefix)
	}
}
