package sandbox

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// Transaction is what the sandbox says about a charge, payment or refund:
// the body of consult-transaction and of notifications (both wrapped in
// "requestBody"), and what GET /sandbox/transactions/{id} returns.
type Transaction = contract.Transaction

// sandboxCNPJ is the tax id of the sandbox's own account, shown as the
// receiving side of paid charges.
const sandboxCNPJ = "11222333000181"

// view renders r at now. Callers hold s.mu.
func (s *Sandbox) view(r *record, now time.Time) Transaction {
	t := Transaction{
		TransactionType: r.kind,
		TransactionID:   r.id,
		ExternalID:      r.externalID,
		Amount:          r.amount,
		PaymentType:     contract.PaymentTypePix,
		Status:          r.statusAt(now),
		Description:     r.description,
		PixID:           r.pixID,
		EndToEndID:      r.endToEndID,
		DateCreated:     contract.FormatDate(r.created),
		DateApproval:    contract.FormatDate(r.approved),
		FailureReason:   r.failure,
	}
	switch r.kind {
	case contract.TypeReceivePix:
		t.DueDate = contract.FormatDate(r.expires)
		t.QRCode = r.qrcode
		if r.status == contract.StatusPaid {
			payer := r.paidBy
			t.CreditParty = &contract.Party{Name: payer.Name, Email: payer.Email, TaxID: payer.TaxID}
			t.DebitParty = &contract.Party{Bank: s.cfg.MerchantName, TaxID: sandboxCNPJ}
		}
	case contract.TypePayment:
		cp := r.creditParty
		t.CreditParty = &cp
		t.DebitParty = &contract.Party{Name: s.cfg.MerchantName, TaxID: sandboxCNPJ}
	case contract.TypeInfraction:
		t.DueDate = contract.FormatDate(r.expires)
		t.AnalysisDetails, t.Defense, t.ReturnTransactionID = r.analysis, r.defense, r.returnID
	}
	switch r.status {
	case contract.StatusCompleted:
		t.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDCompleted, Description: "completed"}
	case contract.StatusFailed:
		t.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDFailed, Description: "failed: " + r.failure}
	}
	return t
}

// staleView is the earlier-status version of a final view, sent after it by
// the out_of_order_notifications fault.
func staleView(final Transaction) Transaction {
	t := final
	t.StatusCode, t.EndToEndID, t.DateApproval, t.FailureReason = nil, "", "", ""
	switch t.TransactionType {
	case contract.TypeReceivePix:
		t.Status, t.CreditParty, t.DebitParty = contract.StatusPending, nil, nil
	case contract.TypeInfraction:
		t.Status, t.AnalysisDetails, t.ReturnTransactionID = contract.StatusOpen, "", ""
	default:
		t.Status = contract.StatusProcessing
	}
	return t
}
