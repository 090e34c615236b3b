// Package contractview renders PixGate's records in the provider family's
// contract (package contract): what PixGate, acting as a provider of the
// family, answers on /v2 and posts to integrators. It is the one place
// where a record of storage takes the contract's shape; storage knows
// nothing of the contract. Whatever a record does not know is left out,
// never null.
package contractview

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
)

// Charge is the answer to a charge (POST /v2/pix/qrcode): transactionId is
// the pix_id, calendar the validity asked for.
func Charge(ch storage.Charge) contract.Charge {
	v := contract.Charge{
		TransactionID: deref(ch.PixID), ExternalID: ch.ExternalID, Status: string(ch.Status), Amount: ch.Amount,
		Debtor: contract.Payer{Name: ch.Payer.Name, Document: ch.Payer.Document}, QRCode: deref(ch.QRCode),
	}
	// The validity asked for (or the provider's answer), as it was: counting
	// it from PixGate's record, made a moment before the provider's, would
	// turn 3600 into 3599.
	if ch.ExpiresAt != nil {
		v.Calendar = contract.Calendar{Expiration: int(ch.ExpiresAt.Sub(ch.CreatedAt).Round(time.Second) / time.Second),
			DueDate: contract.FormatDate(*ch.ExpiresAt)}
	}
	if ch.Expiration != nil {
		v.Calendar.Expiration = *ch.Expiration
	}
	return v
}

// Payment is the answer to a withdrawal (POST /v2/pix/payment): its
// transactionId is PixGate's pix_id for it.
func Payment(w storage.Transfer) contract.Payment {
	return contract.Payment{TransactionID: w.PublicPixID(), ExternalID: deref(w.ExternalID), Status: familyStatus(w.Status),
		Amount: w.Amount, Description: deref(w.Description), CreditParty: Party(w.CreditParty)}
}

// Refund is the answer to a refund (POST /v2/pix/refund): transactionId is
// the refund's pix_id, pix_id the refunded charge's.
func Refund(f storage.Transfer) contract.Refund {
	return contract.Refund{TransactionID: f.PublicPixID(), PixID: f.ChargePixID, ExternalID: deref(f.ExternalID),
		Amount: f.Amount, Status: string(f.Status)}
}

// Party is a withdrawal's recipient as the family names its fields.
func Party(cp storage.CreditParty) contract.Party {
	return contract.Party{Name: cp.Name, KeyType: cp.KeyType, Key: cp.Key, TaxID: cp.TaxID}
}

// Transaction is whichever record t is, as the family's transaction (what
// consult-transaction answers).
func Transaction(t storage.PixTransaction) contract.Transaction {
	switch {
	case t.Charge != nil:
		return ChargeTransaction(*t.Charge)
	case t.Transfer != nil:
		return TransferTransaction(*t.Transfer)
	}
	return contract.Transaction{}
}

// ChargeTransaction is the charge as a RECEIVEPIX transaction, as a
// provider of the family shows it: the payer is its creditParty (the
// family's naming), the question shown to the payer its description, and
// debitParty the account it was paid from, as PixGate's provider reported
// it with the payment (an empty object until then, or when it said
// nothing).
func ChargeTransaction(c storage.Charge) contract.Transaction {
	return contract.Transaction{
		TransactionType: contract.TypeReceivePix, TransactionID: deref(c.PixID), ExternalID: c.ExternalID,
		Amount: c.Amount, PaymentType: contract.PaymentTypePix, Status: string(c.Status),
		EndToEndID:  deref(c.EndToEndID),
		Description: deref(c.PayerQuestion),
		DateCreated: contract.FormatDate(c.CreatedAt), DateApproval: contract.FormatDatePtr(c.PaidAt),
		DueDate:     contract.FormatDatePtr(c.ExpiresAt),
		CreditParty: &contract.Party{Name: c.Payer.Name, Email: deref(c.Payer.Email), TaxID: c.Payer.Document},
		DebitParty:  &contract.Party{Name: c.PayerAccount.Name, TaxID: c.PayerAccount.TaxID, Bank: c.PayerAccount.Bank},
		QRCode:      deref(c.QRCode),
	}
}

// transferTypes are how the family shows each kind of transfer: its
// transaction type, the word its statusCode uses, and whether it goes back
// to a charge's payer (named by the charge's pix_id) or to a creditParty.
var transferTypes = map[storage.TransferKind]struct {
	transactionType, noun string
	toCharge              bool
}{
	storage.KindWithdrawal: {contract.TypePayment, "payment", false},
	storage.KindRefund:     {contract.TypeRefund, "refund", true},
	storage.KindMedReturn:  {contract.TypeMedReturn, "MED return", true},
}

// TransferTransaction is the transfer as the family's transaction: a
// withdrawal as a PAYMENT to its creditParty, a refund as a REFUND of the
// charge whose pix_id it carries (the money returns to the charge's payer,
// so there is no creditParty). Its transactionId is PixGate's pix_id for
// it; its statusCode, once it finished, is the family's (1 and a word of
// success, or 3 and why it failed). Only a completed transfer has a
// dateApproval.
func TransferTransaction(t storage.Transfer) contract.Transaction {
	kind := transferTypes[t.Kind]
	c := contract.Transaction{TransactionType: kind.transactionType, TransactionID: t.PublicPixID(), ExternalID: deref(t.ExternalID),
		Amount: t.Amount, PaymentType: contract.PaymentTypePix, Status: familyStatus(t.Status), EndToEndID: deref(t.EndToEndID),
		Description: deref(t.Description), DateCreated: contract.FormatDate(t.CreatedAt)}
	switch t.Status {
	case storage.TransferCompleted:
		c.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDCompleted, Description: kind.noun + " completed"}
		c.DateApproval = contract.FormatDatePtr(t.FinishedAt)
	case storage.TransferFailed:
		c.StatusCode = &contract.StatusCode{StatusID: contract.StatusIDFailed, Description: kind.noun + " failed"}
		if t.FailureReason != nil && *t.FailureReason != "" {
			c.StatusCode.Description = *t.FailureReason
		}
	}
	if kind.toCharge {
		c.PixID = t.ChargePixID
	} else {
		cp := Party(t.CreditParty)
		c.CreditParty = &cp
	}
	return c
}

// Infraction is a MED infraction of the charge c as the family's
// notification shows one (transactionType INFRACTION, PixGate's extension,
// see docs/postbacks.md): transactionId is PixGate's id of the infraction
// (the one its API takes), pix_id and external_id the disputed charge's,
// amount what the payer disputes, description the payer's report,
// dateCreated when it was reported (when PixGate recorded it, if the
// provider did not say), dueDate when the analysis is due, dateApproval
// when it closed.
func Infraction(inf storage.Infraction, c storage.Charge) contract.Transaction {
	t := contract.Transaction{TransactionType: contract.TypeInfraction, TransactionID: inf.ID.String(), ExternalID: c.ExternalID,
		PixID: inf.ChargePixID, Amount: inf.Amount, PaymentType: contract.PaymentTypePix, Status: string(inf.Status),
		Description: deref(inf.Reason), DateCreated: contract.FormatDatePtr(inf.ReportedAt), DueDate: contract.FormatDatePtr(inf.DueAt),
		DateApproval: contract.FormatDatePtr(inf.ClosedAt), AnalysisDetails: deref(inf.Analysis)}
	if t.PixID == "" {
		t.PixID = deref(c.PixID)
	}
	if t.DateCreated == "" {
		t.DateCreated = contract.FormatDate(inf.CreatedAt)
	}
	return t
}

// Balance is the integrator's wallet as POST /v2/balance answers it:
// balance is what it holds (available plus pending); money reserved for
// transfers in flight or blocked under MED infractions is in no field.
func Balance(w storage.Wallet) contract.Balance {
	return contract.Balance{Balance: w.Available + w.Pending, Available: w.Available, Pending: w.Pending, Currency: "BRL"}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// familyStatus is a transfer's status as the family knows it: a
// withdrawal AWAITING_APPROVAL (PixGate's maker-checker, which the family
// does not have) is a payment not yet sent, PROCESSING, as the family
// answers one it accepted and has not finished.
func familyStatus(s storage.TransferStatus) string {
	if s == storage.TransferAwaitingApproval {
		return string(storage.TransferProcessing)
	}
	return string(s)
}
