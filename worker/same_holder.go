package worker

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// sameHolderReturn is what a confirmed payment of c needs for the
// same-holder rule, which storage applies when the charge's integrator has
// it (Tx.MarkChargePaid): the document of who paid, as the provider
// reported it (normalized; "" when it did not say or said something that
// is not a CPF or CNPJ), and how to return the payment should it not be
// the charge's payer.document: a refund of all of it, with its send and a
// reason the integrator reads in the refund's description and postback.
// The reason names the paying document masked, never whole.
func sameHolderReturn(c storage.Charge, txn *providerclient.Transaction) (string, *storage.ChargeReturn) {
	doc := ""
	for _, p := range []*providerclient.Party{txn.Payer, txn.PayerAccount} {
		if p == nil || p.Document == "" {
			continue
		}
		if norm, err := pix.NormalizeDocument(p.Document); err == nil {
			doc = norm
			break
		}
	}
	reason := "same holder: the provider did not report the payer's document, so the payment is returned"
	if doc != "" {
		reason = "same holder: paid from an account of document " + pix.MaskDocument(doc) +
			", not the charge's payer.document; the payment is returned"
	}
	id := uuid.Must(uuid.NewV7())
	return doc, &storage.ChargeReturn{RefundID: id, Reason: reason,
		Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.RefundSendMessage(id, 0))}}
}
