package sandbox

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// Transaction is what the sandbox says about a charge, payment or refund:
// the body of consult-transaction and of notifications (both wrapped in
// "requestBody"), and what GET /sandbox/transactions/{id} returns.
type Transaction struct {
	TransactionType string      `json:"transactionType"`
	TransactionID   string      `json:"transactionId"`
	ExternalID      string      `json:"external_id"`
	Amount          money.Money `json:"amount"`
	PaymentType     string      `json:"paymentType"`
	Status          string      `json:"status"`
	StatusCode      *StatusCode `json:"statusCode,omitempty"`
	Description     string      `json:"description,omitempty"`
	// PixID is the refunded charge of a REFUND.
	PixID      string `json:"pix_id,omitempty"`
	EndToEndID string `json:"endToEndId,omitempty"`
	// Dates are "YYYY-MM-DD HH:MM:SS" in Brasília time (UTC−3).
	DateCreated  string `json:"dateCreated"`
	DateApproval string `json:"dateApproval,omitempty"`
	DueDate      string `json:"dueDate,omitempty"`
	// CreditParty is the payer of a RECEIVEPIX (the family's naming) and the
	// receiver of a PAYMENT; DebitParty is the other side.
	CreditParty *Party `json:"creditParty,omitempty"`
	DebitParty  *Party `json:"debitParty,omitempty"`
	// QRCode is the BR Code of a charge.
	QRCode string `json:"qrcode,omitempty"`
	// FailureReason says why a payment or refund FAILED.
	FailureReason string `json:"failureReason,omitempty"`
}

// StatusCode is the family's numeric outcome of a payment or refund:
// 1 = completed, 3 = failed.
type StatusCode struct {
	StatusID    int    `json:"statusId"`
	Description string `json:"description"`
}

// Party is a person or company on one side of a transaction.
type Party struct {
	Name    string `json:"name,omitempty"`
	Email   string `json:"email,omitempty"`
	TaxID   string `json:"taxId,omitempty"`
	KeyType string `json:"keyType,omitempty"`
	Key     string `json:"key,omitempty"`
	Bank    string `json:"bank,omitempty"`
}

// sandboxCNPJ is the tax id of the sandbox's own account, shown as the
// receiving side of paid charges.
const sandboxCNPJ = "11222333000181"

// dateLayout is the family's date format; the sandbox writes Brasília time.
const dateLayout = "2006-01-02 15:04:05"

func brasilia() *time.Location { return time.FixedZone("BRT", -3*60*60) }

func formatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(brasilia()).Format(dateLayout)
}

// view renders r at now. Callers hold s.mu.
func (s *Sandbox) view(r *record, now time.Time) Transaction {
	t := Transaction{
		TransactionType: r.kind,
		TransactionID:   r.id,
		ExternalID:      r.externalID,
		Amount:          r.amount,
		PaymentType:     "PIX",
		Status:          r.statusAt(now),
		Description:     r.description,
		PixID:           r.pixID,
		EndToEndID:      r.endToEndID,
		DateCreated:     formatDate(r.created),
		DateApproval:    formatDate(r.approved),
		FailureReason:   r.failure,
	}
	switch r.kind {
	case TypeCharge:
		t.DueDate = formatDate(r.expires)
		t.QRCode = r.qrcode
		if r.status == StatusPaid {
			payer := r.paidBy
			t.CreditParty = &Party{Name: payer.Name, Email: payer.Email, TaxID: payer.TaxID}
			t.DebitParty = &Party{Bank: s.cfg.MerchantName, TaxID: sandboxCNPJ}
		}
	case TypePayment:
		cp := r.creditParty
		t.CreditParty = &cp
		t.DebitParty = &Party{Name: s.cfg.MerchantName, TaxID: sandboxCNPJ}
	}
	switch r.status {
	case StatusCompleted:
		t.StatusCode = &StatusCode{StatusID: 1, Description: "completed"}
	case StatusFailed:
		t.StatusCode = &StatusCode{StatusID: 3, Description: "failed: " + r.failure}
	}
	return t
}

// staleView is the earlier-status version of a final view, sent after it by
// the out_of_order_notifications fault.
func staleView(final Transaction) Transaction {
	t := final
	t.StatusCode, t.EndToEndID, t.DateApproval, t.FailureReason = nil, "", "", ""
	if t.TransactionType == TypeCharge {
		t.Status, t.CreditParty, t.DebitParty = StatusPending, nil, nil
	} else {
		t.Status = StatusProcessing
	}
	return t
}
