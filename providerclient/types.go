package providerclient

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// ChargeRequest is the body of POST /v2/pix/qrcode.
type ChargeRequest struct {
	Amount money.Money `json:"amount"`
	// ExternalID is the caller's id for the charge (PixGate sends its charge
	// id); the provider deduplicates on it, which makes retries safe.
	ExternalID    string `json:"external_id,omitempty"`
	PostbackURL   string `json:"postbackUrl,omitempty"`
	PayerQuestion string `json:"payerQuestion,omitempty"`
	Payer         *Payer `json:"payer,omitempty"`
}

// Payer is who is expected to pay a charge.
type Payer struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
	Email    string `json:"email,omitempty"`
}

// Charge is the provider's answer to a charge: its transactionId (PixGate's
// pix_id), the BR Code and the expiry.
type Charge struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id"`
	Status        string      `json:"status"`
	Amount        money.Money `json:"amount"`
	Calendar      Calendar    `json:"calendar"`
	Debtor        Debtor      `json:"debtor"`
	QRCode        string      `json:"qrcode"`
	// ExpiresAt is when the charge stops being payable: calendar.dueDate
	// (Brasília time) when present, else the answer's arrival plus
	// calendar.expiration seconds.
	ExpiresAt time.Time `json:"-"`
}

// Calendar is a charge's validity.
type Calendar struct {
	// Expiration is the validity in seconds from creation.
	Expiration int `json:"expiration"`
	// DueDate is "YYYY-MM-DD HH:MM:SS", Brasília time.
	DueDate string `json:"dueDate"`
}

// Debtor is the payer the provider recorded for a charge.
type Debtor struct {
	Name     string `json:"name"`
	Document string `json:"document"`
}

// PaymentRequest is the body of POST /v2/pix/payment.
type PaymentRequest struct {
	Amount money.Money `json:"amount"`
	// ExternalID is the caller's id for the payment (PixGate sends its
	// withdrawal id); a repeated call with it never pays twice.
	ExternalID  string      `json:"external_id,omitempty"`
	Description string      `json:"description,omitempty"`
	CreditParty CreditParty `json:"creditParty"`
	PostbackURL string      `json:"postbackUrl,omitempty"`
}

// CreditParty is the receiver of a payment.
type CreditParty struct {
	Name string `json:"name"`
	// KeyType is CPF, CNPJ, EMAIL, PHONE or EVP (see package pix).
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	TaxID   string `json:"taxId"`
}

// Payment is the provider's answer to a payment, normally PROCESSING.
type Payment struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id"`
	Status        string      `json:"status"`
	Amount        money.Money `json:"amount"`
	Description   string      `json:"description"`
	CreditParty   CreditParty `json:"creditParty"`
}

// RefundRequest is the body of POST /v2/pix/refund.
type RefundRequest struct {
	// PixID is the provider's transactionId of the paid charge.
	PixID       string      `json:"pix_id"`
	Amount      money.Money `json:"amount"`
	Description string      `json:"description,omitempty"`
	// ExternalID is the caller's id for the refund (PixGate sends its refund
	// id); a repeated call with it never refunds twice.
	ExternalID  string `json:"external_id,omitempty"`
	PostbackURL string `json:"postbackUrl,omitempty"`
}

// Refund is the provider's answer to a refund, normally PROCESSING.
type Refund struct {
	TransactionID string      `json:"transactionId"`
	PixID         string      `json:"pix_id"`
	ExternalID    string      `json:"external_id"`
	Amount        money.Money `json:"amount"`
	Status        string      `json:"status"`
}

// Balance is the provider account's balance.
type Balance struct {
	Balance   money.Money `json:"balance"`
	Available money.Money `json:"available"`
	Pending   money.Money `json:"pending"`
	Currency  string      `json:"currency"`
}

// dateLayout is the family's date format, in Brasília time.
const dateLayout = "2006-01-02 15:04:05"

func brasilia() *time.Location { return time.FixedZone("BRT", -3*60*60) }

// parseDate reads a provider date: "YYYY-MM-DD HH:MM:SS" in Brasília time,
// or RFC 3339. It returns the zero time for anything else.
func parseDate(s string) time.Time {
	if t, err := time.ParseInLocation(dateLayout, s, brasilia()); err == nil {
		return t
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	return time.Time{}
}

func (c *Charge) setExpiry(received time.Time) {
	if t := parseDate(c.Calendar.DueDate); !t.IsZero() {
		c.ExpiresAt = t
		return
	}
	c.ExpiresAt = received.Add(time.Duration(c.Calendar.Expiration) * time.Second)
}
