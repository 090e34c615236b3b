package contract

import (
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Token is the answer of POST /v2/oauth/token.
type Token struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

// ChargeRequest is the body of POST /v2/pix/qrcode.
type ChargeRequest struct {
	Amount money.Money `json:"amount"`
	// ExternalID is the caller's id for the charge; a provider returns the
	// same charge for a repeated one, which makes retries safe.
	ExternalID    string `json:"external_id,omitempty"`
	PostbackURL   string `json:"postbackUrl,omitempty"`
	PayerQuestion string `json:"payerQuestion,omitempty"`
	Payer         *Payer `json:"payer,omitempty"`
	// Expiration is how long the charge can be paid, in seconds; the
	// family's clients send it, and a provider without it uses its default
	// (the answer's calendar.expiration).
	Expiration int `json:"expiration,omitempty"`
	// Due makes it a due-date charge: PixGate's extension of the contract
	// (docs/due-charges.md), in the same form as v1's; amount is the
	// original amount, expiration is not taken, and payer's name and
	// document are required.
	Due *due.Terms `json:"due,omitempty"`
}

// Payer is who is expected to pay a charge; a charge's answer names it
// debtor.
type Payer struct {
	Name     string `json:"name,omitempty"`
	Document string `json:"document,omitempty"`
	Email    string `json:"email,omitempty"`
}

// Charge is the answer to a charge: its transactionId (the pix_id), the
// BR Code and the validity.
type Charge struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id,omitempty"`
	Status        string      `json:"status"`
	Amount        money.Money `json:"amount"`
	Calendar      Calendar    `json:"calendar"`
	Debtor        Payer       `json:"debtor"`
	QRCode        string      `json:"qrcode"`
}

// Calendar is a charge's validity.
type Calendar struct {
	// Expiration is the validity in seconds from creation.
	Expiration int `json:"expiration"`
	// DueDate is when it ends, in DateLayout.
	DueDate string `json:"dueDate,omitempty"`
}

// PaymentRequest is the body of POST /v2/pix/payment.
type PaymentRequest struct {
	Amount money.Money `json:"amount"`
	// ExternalID is the caller's id for the payment; a repeated call with it
	// never pays twice.
	ExternalID  string `json:"external_id,omitempty"`
	Description string `json:"description,omitempty"`
	CreditParty Party  `json:"creditParty"`
	PostbackURL string `json:"postbackUrl,omitempty"`
}

// Payment is the answer to a payment, normally PROCESSING.
type Payment struct {
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id,omitempty"`
	Status        string      `json:"status"`
	Amount        money.Money `json:"amount"`
	Description   string      `json:"description,omitempty"`
	CreditParty   Party       `json:"creditParty"`
}

// RefundRequest is the body of POST /v2/pix/refund.
type RefundRequest struct {
	// PixID is the transactionId of the paid charge.
	PixID       string      `json:"pix_id"`
	Amount      money.Money `json:"amount"`
	Description string      `json:"description,omitempty"`
	// ExternalID is the caller's id for the refund; a repeated call with it
	// never refunds twice.
	ExternalID  string `json:"external_id,omitempty"`
	PostbackURL string `json:"postbackUrl,omitempty"`
}

// Refund is the answer to a refund, normally PROCESSING.
type Refund struct {
	TransactionID string      `json:"transactionId"`
	PixID         string      `json:"pix_id"`
	ExternalID    string      `json:"external_id,omitempty"`
	Amount        money.Money `json:"amount"`
	Status        string      `json:"status"`
}

// ConsultRequest is the body of POST /v2/consult-transaction. Clients of the
// family spell the field pix_id or pix_Id.
type ConsultRequest struct {
	PixID      string `json:"pix_id,omitempty"`
	PixIDAlias string `json:"pix_Id,omitempty"`
}

// ID is the pix_id asked for, whichever spelling carried it.
func (r ConsultRequest) ID() string {
	if r.PixID != "" {
		return r.PixID
	}
	return r.PixIDAlias
}

// Balance is the answer of POST /v2/balance, amounts in reais.
type Balance struct {
	Balance   money.Money `json:"balance"`
	Available money.Money `json:"available"`
	Pending   money.Money `json:"pending"`
	Currency  string      `json:"currency"`
}

// Error is the family's error body. Errors, by field, is PixGate's addition
// on validation failures.
type Error struct {
	StatusCode int                 `json:"statusCode"`
	Message    string              `json:"message"`
	Errors     map[string][]string `json:"errors,omitempty"`
}

// KeyLookup is the body of a key directory lookup (ours, PathKeyLookup).
type KeyLookup struct {
	Key     string `json:"key"`
	KeyType string `json:"keyType"`
}

// KeyEntry is who a key belongs to (ours): the holder's name and document
// (CPF or CNPJ, digits), the institution's name and ISPB, and whether the
// DICT marks the key for fraud.
type KeyEntry struct {
	Key         string `json:"key"`
	KeyType     string `json:"keyType"`
	Name        string `json:"name"`
	TaxID       string `json:"taxId"`
	Bank        string `json:"bank"`
	ISPB        string `json:"ispb"`
	FraudMarked bool   `json:"fraudMarked"`
}
