package pixgate

// V2Balance is the v2 balance: Balance is Available + Pending.
type V2Balance struct {
	Balance   Amount `json:"balance"`
	Available Amount `json:"available"`
	Pending   Amount `json:"pending"`
	Currency  string `json:"currency"`
}

// V2Charge is the answer to POST /v2/pix/qrcode.
type V2Charge struct {
	// TransactionID is the charge's pix_id.
	TransactionID string `json:"transactionId"`
	ExternalID    string `json:"external_id"`
	Status        string `json:"status"`
	Amount        Amount `json:"amount"`
	Calendar      struct {
		// Expiration is the validity in seconds from creation.
		Expiration int `json:"expiration"`
		// DueDate is "YYYY-MM-DD HH:MM:SS", Brasília time.
		DueDate string `json:"dueDate"`
	} `json:"calendar"`
	Debtor struct {
		Name     string `json:"name"`
		Document string `json:"document"`
	} `json:"debtor"`
	// QRCode is the BR Code ("PIX copia e cola").
	QRCode string `json:"qrcode"`
}

// V2Payment is the answer to POST /v2/pix/payment.
type V2Payment struct {
	// TransactionID is the payment's pix_id.
	TransactionID string      `json:"transactionId"`
	ExternalID    string      `json:"external_id"`
	Status        string      `json:"status"`
	Amount        Amount      `json:"amount"`
	Description   string      `json:"description"`
	CreditParty   CreditParty `json:"creditParty"`
}

// RefundRequest refunds part or all of a paid charge.
type RefundRequest struct {
	// PixID is the charge's pix_id (its v2 transactionId); Client.RefundCharge
	// names the charge by its id or external_id instead.
	PixID       string `json:"pix_id,omitempty"`
	Amount      Amount `json:"amount"`
	Description string `json:"description,omitempty"`
	// ExternalID is the idempotency key; left empty, the client sets one
	// ("rfd-" and 20 random characters) before the first attempt.
	ExternalID string `json:"external_id,omitempty"`
}

// V2Refund is the answer to POST /v2/pix/refund.
type V2Refund struct {
	// TransactionID is the refund's own pix_id; PixID the charge's.
	TransactionID string `json:"transactionId"`
	PixID         string `json:"pix_id"`
	ExternalID    string `json:"external_id"`
	Amount        Amount `json:"amount"`
	Status        string `json:"status"`
}

// Transaction is a charge (RECEIVEPIX), payment (PAYMENT) or refund
// (REFUND) as consult-transaction and the postbacks describe it. What
// PixGate does not know is empty.
type Transaction struct {
	TransactionType string `json:"transactionType"`
	TransactionID   string `json:"transactionId"`
	ExternalID      string `json:"external_id"`
	// PixID is a refund's charge.
	PixID       string      `json:"pix_id"`
	Amount      Amount      `json:"amount"`
	PaymentType string      `json:"paymentType"`
	Status      string      `json:"status"`
	StatusCode  *StatusCode `json:"statusCode"`
	EndToEndID  string      `json:"endToEndId"`
	Description string      `json:"description"`
	// Dates are "YYYY-MM-DD HH:MM:SS", Brasília time.
	DateCreated  string `json:"dateCreated"`
	DateApproval string `json:"dateApproval"`
	DueDate      string `json:"dueDate"`
	// CreditParty is a charge's payer or a payment's receiver; DebitParty
	// the account a charge was paid from, as the provider reported it.
	CreditParty *Party `json:"creditParty"`
	DebitParty  *Party `json:"debitParty"`
	QRCode      string `json:"qrcode"`
}

// Transaction types.
const (
	TypeReceivePix = "RECEIVEPIX"
	TypePayment    = "PAYMENT"
	TypeRefund     = "REFUND"
)

// Party is one side of a transaction.
type Party struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	TaxID   string `json:"taxId"`
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	Bank    string `json:"bank"`
}

// StatusCode is the family's outcome of a finished payment or refund:
// StatusID 1 completed, 3 failed.
type StatusCode struct {
	StatusID    int    `json:"statusId"`
	Description string `json:"description"`
}
