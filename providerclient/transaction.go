package providerclient

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
// as consult-transaction and notifications describe it.
type Transaction struct {
	TransactionType string
	TransactionID   string
	ExternalID      string
	Amount          money.Money
	// Status is uppercased: PENDING, PAID, EXPIRED, PROCESSING, COMPLETED,
	// FAILED.
	Status     string
	EndToEndID string
	// PixID is the refunded charge of a REFUND.
	PixID string
	// DateApproval is the provider's text; ApprovedAt its parsed time (zero
	// when absent or unreadable).
	DateApproval string
	ApprovedAt   time.Time
	StatusCode   *StatusCode
}

// StatusCode is the family's numeric outcome of a payment or refund
// (1 = success; failure codes differ between providers).
type StatusCode struct {
	StatusID    int
	Description string
}

type transactionWire struct {
	TransactionType string          `json:"transactionType"`
	TransactionID   string          `json:"transactionId"`
	ExternalID      string          `json:"external_id"`
	Amount          json.RawMessage `json:"amount"`
	Status          string          `json:"status"`
	EndToEndID      string          `json:"endToEndId"`
	PixID           string          `json:"pix_id"`
	DateApproval    string          `json:"dateApproval"`
	StatusCode      *struct {
		StatusID    json.RawMessage `json:"statusId"`
		Description string          `json:"description"`
	} `json:"statusCode"`
}

// DecodeTransaction reads a consult-transaction answer or a provider
// notification, wrapped in "requestBody" or not: each field comes from
// requestBody when there, else from the top level
// (requestBody.status ?? status). Amounts and statusId are read exactly,
// as JSON numbers or strings. It fails when no status can be found.
func DecodeTransaction(body []byte) (*Transaction, error) {
	var w struct {
		transactionWire
		RequestBody *transactionWire `json:"requestBody"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("decode transaction: %w", err)
	}
	outer, inner := w.transactionWire, w.RequestBody
	if inner == nil {
		inner = &transactionWire{}
	}
	pick := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	t := &Transaction{
		TransactionType: strings.ToUpper(pick(inner.TransactionType, outer.TransactionType)),
		TransactionID:   pick(inner.TransactionID, outer.TransactionID),
		ExternalID:      pick(inner.ExternalID, outer.ExternalID),
		Status:          strings.ToUpper(strings.TrimSpace(pick(inner.Status, outer.Status))),
		EndToEndID:      pick(inner.EndToEndID, outer.EndToEndID),
		PixID:           pick(inner.PixID, outer.PixID),
		DateApproval:    pick(inner.DateApproval, outer.DateApproval),
	}
	if t.Status == "" {
		return nil, errors.New("decode transaction: no status")
	}
	t.ApprovedAt = parseDate(t.DateApproval)
	amount := inner.Amount
	if len(amount) == 0 {
		amount = outer.Amount
	}
	if len(amount) > 0 && string(amount) != "null" {
		m, err := money.Parse(unquote(amount))
		if err != nil {
			return nil, fmt.Errorf("decode transaction: amount %w", err)
		}
		t.Amount = m
	}
	sc := inner.StatusCode
	if sc == nil {
		sc = outer.StatusCode
	}
	if sc != nil {
		id, _ := strconv.Atoi(unquote(sc.StatusID))
		t.StatusCode = &StatusCode{StatusID: id, Description: sc.Description}
	}
	return t, nil
}

func unquote(raw json.RawMessage) string {
	return strings.Trim(strings.TrimSpace(string(raw)), `"`)
}
