package contract

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// Transaction is a charge (RECEIVEPIX), payment (PAYMENT) or refund (REFUND)
// as consult-transaction answers and notifications describe it, inside an
// Envelope.
type Transaction struct {
	TransactionType string `json:"transactionType"`
	TransactionID   string `json:"transactionId,omitempty"`
	ExternalID      string `json:"external_id,omitempty"`
	// PixID is the refunded charge of a REFUND.
	PixID       string      `json:"pix_id,omitempty"`
	Amount      money.Money `json:"amount"`
	PaymentType string      `json:"paymentType,omitempty"`
	Status      string      `json:"status"`
	// StatusCode is the outcome of a finished payment or refund.
	StatusCode  *StatusCode `json:"statusCode,omitempty"`
	EndToEndID  string      `json:"endToEndId,omitempty"`
	Description string      `json:"description,omitempty"`
	// Dates are in DateLayout, Brasília time.
	DateCreated  string `json:"dateCreated,omitempty"`
	DateApproval string `json:"dateApproval,omitempty"`
	DueDate      string `json:"dueDate,omitempty"`
	// CreditParty is the payer of a RECEIVEPIX (the family's naming) and the
	// receiver of a PAYMENT; DebitParty is the other side.
	CreditParty *Party `json:"creditParty,omitempty"`
	DebitParty  *Party `json:"debitParty,omitempty"`
	// QRCode is the BR Code of a charge.
	QRCode string `json:"qrcode,omitempty"`
	// FailureReason says why a payment or refund FAILED, when the provider
	// tells more than statusCode.description.
	FailureReason string `json:"failureReason,omitempty"`

	// An INFRACTION's (ours): its analysis on closing, the defense the
	// provider holds and, once agreed, the transactionId of its MED_RETURN.
	// Its description is the payer's report, dueDate when the analysis is
	// due, dateApproval when it closed.
	AnalysisDetails     string `json:"analysisDetails,omitempty"`
	Defense             string `json:"defense,omitempty"`
	ReturnTransactionID string `json:"returnTransactionId,omitempty"`
}

// StatusCode is the family's numeric outcome of a payment or refund.
type StatusCode struct {
	StatusID    int    `json:"statusId"`
	Description string `json:"description"`
}

// Party is a person or company on one side of a transaction: a payment's
// receiver (name, keyType, key, taxId), a charge's payer (name, email,
// taxId) or the payer's bank.
type Party struct {
	Name    string `json:"name,omitempty"`
	Email   string `json:"email,omitempty"`
	TaxID   string `json:"taxId,omitempty"`
	KeyType string `json:"keyType,omitempty"`
	Key     string `json:"key,omitempty"`
	Bank    string `json:"bank,omitempty"`
}

// Envelope wraps notification and consult bodies the way the family does:
// {"requestBody": {...}}. T is a Transaction, or a struct embedding one
// with a sender's own additions.
type Envelope[T any] struct {
	RequestBody T `json:"requestBody"`
}

// ApprovedAt is DateApproval as a time; zero when absent or unreadable.
func (t Transaction) ApprovedAt() time.Time { return ParseDate(t.DateApproval) }

// lenientTransaction reads what providers of the family actually send:
// amounts and statusId as numbers or as strings.
type lenientTransaction struct {
	Transaction
	Amount     json.RawMessage `json:"amount"`
	StatusCode *struct {
		StatusID    json.RawMessage `json:"statusId"`
		Description string          `json:"description"`
	} `json:"statusCode"`
}

// DecodeTransaction reads a consult-transaction answer or a notification,
// wrapped in "requestBody" or not: each field comes from requestBody when
// there, else from the top level (clients read requestBody.status ??
// status). Amounts and statusId are read exactly, as JSON numbers or
// strings; a member of an unexpected type is skipped. The type and status
// come back uppercased. It fails when the body is not JSON or has no status.
func DecodeTransaction(body []byte) (Transaction, error) {
	var outer struct {
		lenientTransaction
		RequestBody json.RawMessage `json:"requestBody"`
	}
	if err := tolerant(json.Unmarshal(body, &outer)); err != nil {
		return Transaction{}, fmt.Errorf("decode transaction: %w", err)
	}
	w := outer.lenientTransaction
	if inner := outer.RequestBody; len(inner) > 0 && inner[0] == '{' {
		// Unmarshalling into w again overwrites exactly the members present.
		if err := tolerant(json.Unmarshal(inner, &w)); err != nil {
			return Transaction{}, fmt.Errorf("decode transaction: requestBody: %w", err)
		}
	}
	t := w.Transaction
	t.TransactionType = strings.ToUpper(strings.TrimSpace(t.TransactionType))
	t.Status = strings.ToUpper(strings.TrimSpace(t.Status))
	if t.Status == "" {
		return Transaction{}, errors.New("decode transaction: no status")
	}
	if len(w.Amount) > 0 && string(w.Amount) != "null" {
		m, err := money.Parse(unquote(w.Amount))
		if err != nil {
			return Transaction{}, fmt.Errorf("decode transaction: amount %w", err)
		}
		t.Amount = m
	}
	t.StatusCode = nil
	if sc := w.StatusCode; sc != nil {
		id, _ := strconv.Atoi(unquote(sc.StatusID))
		t.StatusCode = &StatusCode{StatusID: id, Description: sc.Description}
	}
	return t, nil
}

// tolerant lets members of an unexpected type pass (they stay empty) and
// keeps every other decoding error.
func tolerant(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return nil
	}
	return err
}

func unquote(raw json.RawMessage) string {
	return strings.Trim(strings.TrimSpace(string(raw)), `"`)
}
