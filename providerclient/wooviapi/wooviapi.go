// Package wooviapi is Woovi's (OpenPix) API as PixGate uses it: the wire
// types of the requests, answers and webhooks, written once for the woovi
// connector and the sandbox's woovi face. Source: Woovi's OpenAPI document
// (github.com/Open-Pix/openpix-developers, src/swaggers/openpix.yml,
// "OpenPix" 1.0.0, MIT licence) and its developer documentation
// (developers.woovi.com). Amounts are integers of centavos.
package wooviapi

// Routes (relative to the API's base URL, e.g. https://api.woovi.com).
const (
	PathCharge        = "/api/v1/charge"
	PathChargeByID    = "/api/v1/charge/{id}"
	PathChargeRefund  = "/api/v1/charge/{id}/refund"
	PathRefundByID    = "/api/v1/refund/{id}"
	PathPayment       = "/api/v1/payment"
	PathPaymentByID   = "/api/v1/payment/{id}"
	PathAccounts      = "/api/v1/account/"
	PathTransactions  = "/api/v1/transaction"
	HeaderSignature   = "x-webhook-signature"
	PaymentTypePixKey = "PIX_KEY"
)

// Charge statuses (Charge.status).
const (
	ChargeActive    = "ACTIVE"
	ChargeCompleted = "COMPLETED"
	ChargeExpired   = "EXPIRED"
)

// Payment statuses (Payment.status), and APPROVED, which the approval
// answer of Woovi's documentation shows.
const (
	PaymentCreated   = "CREATED"
	PaymentApproved  = "APPROVED"
	PaymentConfirmed = "CONFIRMED"
	PaymentFailed    = "FAILED"
	PaymentDenied    = "DENIED"
)

// Refund statuses: a charge refund's (ChargeRefund.status) and a refund
// read back's (Refund.status).
const (
	RefundInProcessing    = "IN_PROCESSING"
	RefundConfirmed       = "CONFIRMED"
	RefundRejected        = "REJECTED"
	RefundRefunded        = "REFUNDED"
	RefundNotAccomplished = "NOT_ACCOMPLISHED"
)

// Webhook events PixGate reads (WebhookEventEnum).
const (
	EventChargeCompleted = "OPENPIX:CHARGE_COMPLETED"
	EventChargeExpired   = "OPENPIX:CHARGE_EXPIRED"
	EventMovementOK      = "OPENPIX:MOVEMENT_CONFIRMED"
	EventMovementFailed  = "OPENPIX:MOVEMENT_FAILED"
	EventMovementRemoved = "OPENPIX:MOVEMENT_REMOVED"
	EventRefundSentOK    = "PIX_TRANSACTION_REFUND_SENT_CONFIRMED"
	EventRefundSentNo    = "PIX_TRANSACTION_REFUND_SENT_REJECTED"
)

// ChargeRequest is the body of POST /api/v1/charge (ChargePayload). Type
// and the fields after it make a due-date charge (see due.go); Woovi
// considers them only for type OVERDUE.
type ChargeRequest struct {
	CorrelationID    string            `json:"correlationID"`
	Value            int64             `json:"value"`
	Comment          string            `json:"comment,omitempty"`
	ExpiresIn        int               `json:"expiresIn,omitempty"`
	Customer         *Customer         `json:"customer,omitempty"`
	Type             string            `json:"type,omitempty"`
	DaysForDueDate   int               `json:"daysForDueDate,omitempty"`
	DaysAfterDueDate int               `json:"daysAfterDueDate,omitempty"`
	Interests        *Rate             `json:"interests,omitempty"`
	Fines            *Rate             `json:"fines,omitempty"`
	DiscountSettings *DiscountSettings `json:"discountSettings,omitempty"`
}

// Customer is a charge's payer (CustomerPayload).
type Customer struct {
	Name  string `json:"name"`
	TaxID string `json:"taxID,omitempty"`
	Email string `json:"email,omitempty"`
}

// Charge is a charge as Woovi answers it. Its expiresIn is a string in the
// document's schema and a number in its examples: it is read as either.
type Charge struct {
	Value         int64       `json:"value"`
	Status        string      `json:"status"`
	CorrelationID string      `json:"correlationID"`
	BrCode        string      `json:"brCode"`
	Comment       string      `json:"comment,omitempty"`
	TransactionID string      `json:"transactionID,omitempty"`
	GlobalID      string      `json:"globalID,omitempty"`
	ExpiresIn     StringOrNum `json:"expiresIn,omitempty"`
	ExpiresDate   string      `json:"expiresDate,omitempty"`
	CreatedAt     string      `json:"createdAt,omitempty"`
	UpdatedAt     string      `json:"updatedAt,omitempty"`
	// Type is DYNAMIC or OVERDUE (a due-date charge), DueDate an OVERDUE
	// charge's due date (ISO 8601).
	Type    string `json:"type,omitempty"`
	DueDate string `json:"dueDate,omitempty"`
}

// ChargeAnswer is the answer of POST /api/v1/charge and GET
// /api/v1/charge/{id}.
type ChargeAnswer struct {
	Charge        Charge `json:"charge"`
	CorrelationID string `json:"correlationID,omitempty"`
	BrCode        string `json:"brCode,omitempty"`
}

// RefundRequest is the body of POST /api/v1/charge/{id}/refund
// (ChargeRefundPayload).
type RefundRequest struct {
	CorrelationID string `json:"correlationID"`
	Value         int64  `json:"value"`
	Comment       string `json:"comment,omitempty"`
}

// ChargeRefund is a refund as its creation answers it.
type ChargeRefund struct {
	Value         int64  `json:"value"`
	Status        string `json:"status"`
	CorrelationID string `json:"correlationID"`
	EndToEndID    string `json:"endToEndId,omitempty"`
	Time          string `json:"time,omitempty"`
	Comment       string `json:"comment,omitempty"`
}

// ChargeRefundAnswer wraps ChargeRefund.
type ChargeRefundAnswer struct {
	Refund ChargeRefund `json:"refund"`
}

// Refund is a refund read back (GET /api/v1/refund/{id}).
type Refund struct {
	Value                int64  `json:"value"`
	Status               string `json:"status"`
	CorrelationID        string `json:"correlationID"`
	RefundID             string `json:"refundId,omitempty"`
	ReturnIdentification string `json:"returnIdentification,omitempty"`
	Time                 string `json:"time,omitempty"`
	Comment              string `json:"comment,omitempty"`
}

// RefundAnswer wraps Refund.
type RefundAnswer struct {
	PixTransactionRefund Refund `json:"pixTransactionRefund"`
}

// PaymentRequest is the body of POST /api/v1/payment to a PIX key
// (PaymentCreatePayload, "Pix key"), approved at once (autoApprove).
type PaymentRequest struct {
	Type                 string `json:"type"`
	Value                int64  `json:"value"`
	DestinationAlias     string `json:"destinationAlias"`
	DestinationAliasType string `json:"destinationAliasType"`
	CorrelationID        string `json:"correlationID"`
	Comment              string `json:"comment,omitempty"`
	AutoApprove          bool   `json:"autoApprove"`
}

// Payment is a PIX sent.
type Payment struct {
	Type                 string `json:"type,omitempty"`
	Value                int64  `json:"value"`
	DestinationAlias     string `json:"destinationAlias,omitempty"`
	DestinationAliasType string `json:"destinationAliasType,omitempty"`
	CorrelationID        string `json:"correlationID"`
	Comment              string `json:"comment,omitempty"`
	Status               string `json:"status"`
}

// PaymentTransaction is the PIX of a payment, once made.
type PaymentTransaction struct {
	Value                  int64  `json:"value"`
	EndToEndID             string `json:"endToEndId,omitempty"`
	Time                   string `json:"time,omitempty"`
	ProviderRejectedReason string `json:"providerRejectedReason,omitempty"`
}

// PaymentAnswer is the answer of POST /api/v1/payment and GET
// /api/v1/payment/{id}.
type PaymentAnswer struct {
	Payment     Payment             `json:"payment"`
	Transaction *PaymentTransaction `json:"transaction,omitempty"`
}

// Account is a bank account of the company (CompanyBankAccount).
type Account struct {
	AccountID string  `json:"accountId"`
	IsDefault bool    `json:"isDefault"`
	Balance   Balance `json:"balance"`
}

// Balance is an account's money in centavos.
type Balance struct {
	Total     int64 `json:"total"`
	Blocked   int64 `json:"blocked"`
	Available int64 `json:"available"`
}

// AccountsAnswer is the answer of GET /api/v1/account/.
type AccountsAnswer struct {
	Accounts []Account `json:"accounts"`
}

// Error is Woovi's error body.
type Error struct {
	Error string `json:"error"`
}

// Webhook is a webhook's body: the event and the object it is about.
type Webhook struct {
	Event       string              `json:"event"`
	Charge      *Charge             `json:"charge,omitempty"`
	Payment     *Payment            `json:"payment,omitempty"`
	Transaction *PaymentTransaction `json:"transaction,omitempty"`
	Refund      *ChargeRefund       `json:"refund,omitempty"`
}

// The transaction list (GET /api/v1/transaction with start, end, skip and
// limit; "Get a list of transactions"): each movement of the account's
// money. The document names a transaction's kind (PAYMENT received,
// WITHDRAW sent, REFUND, FEE, ...) in the enum of "status" and its state
// (CREATED, CONFIRMED, IN_PROCESSING, REJECTED, ...) in the enum of
// "type", while the list's own filter calls the kinds "type": a reader
// takes each value for what it is.
const (
	TransactionPayment   = "PAYMENT"
	TransactionWithdraw  = "WITHDRAW"
	TransactionRefund    = "REFUND"
	TransactionConfirmed = "CONFIRMED"
)

// Transaction is one item of the transaction list. Payer is who paid
// (the document's Transaction.payer, a Customer).
type Transaction struct {
	Value         int64   `json:"value"`
	Time          string  `json:"time"`
	EndToEndID    string  `json:"endToEndId,omitempty"`
	EndToEndIDAlt string  `json:"endToEndID,omitempty"`
	TransactionID string  `json:"transactionID,omitempty"`
	Type          string  `json:"type,omitempty"`
	Status        string  `json:"status,omitempty"`
	Charge        *Charge `json:"charge,omitempty"`
	Payer         *Person `json:"payer,omitempty"`
}

// ChargeParam filters the transaction list by a charge: "You can use the
// charge ID or correlation ID or transaction ID of charge to get a list of
// transactions related" to it.
const ChargeParam = "charge"

// Person is a customer or a payer as Woovi answers it (the Customer
// schema): unlike a charge's customer as asked for (CustomerPayload), its
// taxID is an object.
type Person struct {
	Name          string `json:"name,omitempty"`
	Email         string `json:"email,omitempty"`
	Phone         string `json:"phone,omitempty"`
	TaxID         *TaxID `json:"taxID,omitempty"`
	CorrelationID string `json:"correlationID,omitempty"`
}

// TaxID is a tax id and its type (BR:CPF, BR:CNPJ).
type TaxID struct {
	TaxID string `json:"taxID"`
	Type  string `json:"type,omitempty"`
}

// Tax id types, as the document's examples write them.
const (
	TaxIDCPF  = "BR:CPF"
	TaxIDCNPJ = "BR:CNPJ"
)

// TransactionList is the answer of GET /api/v1/transaction.
type TransactionList struct {
	Transactions []Transaction `json:"transactions"`
	PageInfo     struct {
		Skip        int  `json:"skip"`
		Limit       int  `json:"limit"`
		HasNextPage bool `json:"hasNextPage"`
	} `json:"pageInfo"`
}
