package efi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Journey 3 (QR_WITH_PAYMENT; docs/provider.md, "Recurrences (efi)"): one
// BR Code pays an immediate charge, the first payment, and carries the
// recurrence for consent. The charge is an ordinary cob (PUT
// /v2/cob/{txid}) under the txid CreateCharge would give PixGate's id of
// it, so that PixGate reads it as any charge; the recurrence names it in
// ativacao.dadosJornada.txid (POST /v2/rec); the composite BR Code is the
// recurrence's dadosQR read with that txid (GET /v2/rec/{idRec}?txid=).

// firstPaymentTxid is the txid of journey 3's first payment: PixGate's
// id of its charge in the contract's form, as CreateCharge derives it.
// Without an amount or an id there is no first payment to send; a fixed
// recurrence whose first payment is of another amount is refused, as
// PixGate's API refuses it (the first payment is cycle 0's).
func firstPaymentTxid(op string, req providerclient.RecurrenceRequest) (string, error) {
	switch {
	case req.FirstPayment <= 0:
		return "", rejected(op, "first_payment: the QR_WITH_PAYMENT journey pays a first payment, whose amount is missing")
	case req.Amount.Fixed > 0 && req.Amount.Fixed != req.FirstPayment:
		return "", rejected(op, "first_payment: a fixed recurrence's first payment is its amount")
	}
	return contractID(op, req.FirstPaymentID, txidPattern)
}

// ensureFirstPayment makes journey 3's first payment under txid: its
// amount, the payer, the recurrence's description as the question to the
// payer, valid until the consent's deadline (paying it is consenting).
// One an earlier try made is read first and taken, paid or not, when its
// amount is the first payment's: a PUT of it would revise a cob still
// ATIVA (shortening its validity to the deadline from now). The account's
// webhook is registered first: the cob's payment is notified as any
// charge's.
func (c *connector) ensureFirstPayment(ctx context.Context, req providerclient.RecurrenceRequest, txid string) error {
	op := providerclient.OpCreateRecurrence
	deadline, err := recurrence.ConsentDeadline(time.Now(), req.ConsentExpiresAt)
	if err != nil {
		return rejected(op, err.Error())
	}
	if err := c.ensureWebhook(ctx); err != nil {
		return err
	}
	in := c.cobRequest(providerclient.ChargeRequest{Amount: req.FirstPayment, Payer: req.Payer,
		PayerQuestion: req.Description, Expiration: time.Until(deadline)})
	cob, err := c.getCob(ctx, txid)
	switch {
	case err == nil && cob.Valor.Original != in.Valor.Original:
		return rejected(op, "a charge of another amount already has the first payment's txid")
	case err == nil:
		return nil
	case !errors.Is(err, providerclient.ErrNotFound):
		return err
	}
	_, err = c.putCob(ctx, op, txid, in)
	return err
}

// getRecWithCob reads the recurrence idRec with the composite BR Code of
// it and the cob txid (GET /v2/rec/{idRec}?txid=): a dadosQR of another
// journey than 3 is not that BR Code, and is an unknown outcome.
func (c *connector) getRecWithCob(ctx context.Context, idRec, txid string) (*bcbpix.Rec, error) {
	op := providerclient.OpCreateRecurrence
	q := url.Values{bcbpix.RecTxidParam: {txid}}
	rec, err := c.getRecAt(ctx, op, "/v2/rec/"+idRec+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	if q := rec.DadosQR; q != nil && q.Jornada != "" && q.Jornada != recurrence.JourneyQRWithPayment.BCB() {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "the recurrence " + idRec + " read with the txid " + txid + " has the BR Code of " + q.Jornada}
	}
	return rec, nil
}
