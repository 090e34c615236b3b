package storage

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// PixGate's records as the provider family's transactions: what PixGate,
// acting as a provider of the family, shows on /v2 and posts to integrators.
// Whatever a record does not know is left out, never null.

// ContractTransaction is the charge as a RECEIVEPIX transaction. The payer
// is its creditParty (the family's naming); the payer's bank is not known to
// PixGate, so debitParty is an empty object.
func (c Charge) ContractTransaction() contract.Transaction {
	return contract.Transaction{
		TransactionType: contract.TypeReceivePix, TransactionID: deref(c.PixID), ExternalID: c.ExternalID,
		Amount: c.Amount, PaymentType: contract.PaymentTypePix, Status: c.Status,
		EndToEndID:  deref(c.EndToEndID),
		DateCreated: contract.FormatDate(c.CreatedAt), DateApproval: contract.FormatDatePtr(c.PaidAt),
		DueDate:     contract.FormatDatePtr(c.ExpiresAt),
		CreditParty: &contract.Party{Name: c.Payer.Name, Email: deref(c.Payer.Email), TaxID: c.Payer.Document},
		DebitParty:  &contract.Party{},
		QRCode:      deref(c.QRCode),
	}
}

// ContractTransaction is the withdrawal as a PAYMENT transaction: its
// transactionId is PixGate's pix_id for it, its receiver the creditParty.
func (w Withdrawal) ContractTransaction() contract.Transaction {
	t := transferTransaction(contract.TypePayment, w.Status, w.FailureReason, w.CreatedAt, w.FinishedAt)
	t.TransactionID, t.ExternalID, t.Amount = w.PublicPixID(), deref(w.ExternalID), w.Amount
	t.EndToEndID, t.Description = deref(w.EndToEndID), deref(w.Description)
	cp := w.CreditParty.ContractParty()
	t.CreditParty = &cp
	return t
}

// ContractParty is the receiver as the family names its fields.
func (cp CreditParty) ContractParty() contract.Party {
	return contract.Party{Name: cp.Name, KeyType: cp.KeyType, Key: cp.Key, TaxID: cp.TaxID}
}

// ContractTransaction is the refund as a REFUND transaction (transactionId
// PixGate's pix_id for it) of the charge whose pix_id is chargePixID. The money returns to the charge's payer, so
// there is no creditParty.
func (f Refund) ContractTransaction(chargePixID string) contract.Transaction {
	t := transferTransaction(contract.TypeRefund, f.Status, f.FailureReason, f.CreatedAt, f.FinishedAt)
	t.TransactionID, t.ExternalID, t.PixID, t.Amount = f.PublicPixID(), deref(f.ExternalID), chargePixID, f.Amount
	t.EndToEndID, t.Description = deref(f.EndToEndID), deref(f.Description)
	return t
}

// transferTransaction starts the transaction of a withdrawal or refund: its
// type, status and dates, and the family's statusCode once it finished (1
// and a word of success, or 3 and why it failed). Only a completed transfer
// has a dateApproval.
func transferTransaction(kind, status string, reason *string, created time.Time, finished *time.Time) contract.Transaction {
	t := contract.Transaction{TransactionType: kind, PaymentType: contract.PaymentTypePix, Status: status,
		DateCreated: contract.FormatDate(created)}
	what := "payment"
	if kind == contract.TypeRefund {
		what = "refund"
	}
	switch status {
	case WithdrawalCompleted:
		t.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDCompleted, Description: what + " completed"}
		t.DateApproval = contract.FormatDatePtr(finished)
	case WithdrawalFailed:
		t.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDFailed, Description: what + " failed"}
		if reason != nil && *reason != "" {
			t.StatusCode.Description = *reason
		}
	}
	return t
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
