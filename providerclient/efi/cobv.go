package efi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Due-date charges are the BCB's cobv (BCB API Pix 2.9.0, tag CobV), under
// the same txid as a cob would be (PixGate's id without its hyphens): PUT
// /v2/cobv/{txid} creates one, GET reads it, and a paid one's pix[].valor
// is what was paid on the day, fine, interest, rebate and discount
// included.

// createCobV issues req, a due-date charge, under txid.
func (c *connector) createCobV(ctx context.Context, req providerclient.ChargeRequest, txid string) (*providerclient.Charge, error) {
	op := providerclient.OpCharge
	terms, in, err := cobvRequest(req, c.cfg.PixKey)
	if err != nil {
		return nil, err
	}
	if err := c.ensureWebhook(ctx); err != nil {
		return nil, err
	}
	res, err := c.call(ctx, op, http.MethodPut, "/v2/cobv/"+txid, in)
	if err != nil {
		return nil, err
	}
	var cv bcbpix.CobV
	if err := decode(op, res, &cv); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		// As for a cob: a due-date charge already under PixGate's txid is
		// this one, made by an earlier try whose answer was lost.
		existing, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*bcbpix.CobV, error) {
			return c.getCobV(ctx, txid)
		})
		if err != nil {
			return nil, err
		}
		if existing.Valor.Original != in.Valor.Original || existing.Calendario.DataDeVencimento != in.Calendario.DataDeVencimento {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, StatusCode: res.Status,
				Message: "a due-date charge of another amount or due date already has this txid"}
		}
		cv = *existing
	}
	if cv.PixCopiaECola == "" {
		// Efí documents the PUT's answer without pixCopiaECola, and its
		// read with it: the code is read back.
		got, err := c.getCobV(ctx, txid)
		if err != nil {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
				Message: "the due-date charge was made, but reading its BR Code back failed: " + err.Error()}
		}
		cv = *got
	}
	if cv.PixCopiaECola == "" {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "answer without pixCopiaECola"}
	}
	return &providerclient.Charge{ProviderID: cv.Txid, BRCode: cv.PixCopiaECola, Status: cobStatus(cv.Status),
		ExpiresAt: cobvExpiry(cv, terms)}, nil
}

// cobvRequest is the body of PUT /v2/cobv/{txid} for req, and its terms
// with their defaults. The BCB requires the devedor, so a payer without a
// name and a CPF or CNPJ is refused before anything is sent.
func cobvRequest(req providerclient.ChargeRequest, key string) (due.Terms, bcbpix.CobVRequest, error) {
	terms := *req.Due
	if terms.Original == 0 {
		terms.Original = req.Amount
	}
	terms.Normalize()
	refuse := func(msg string) (due.Terms, bcbpix.CobVRequest, error) {
		return terms, bcbpix.CobVRequest{}, &providerclient.Error{Op: providerclient.OpCharge, Kind: providerclient.ErrRejected, Message: msg}
	}
	p := req.Payer
	if p.Name == "" {
		return refuse("payer.name is required: a due-date charge names its payer (the BCB's devedor)")
	}
	devedor := &bcbpix.Devedor{Nome: truncate(p.Name, 200)}
	switch len(p.Document) {
	case 11:
		devedor.CPF = p.Document
	case 14:
		devedor.CNPJ = p.Document
	default:
		return refuse("payer.document must be a CPF or a CNPJ: a due-date charge names its payer (the BCB's devedor)")
	}
	valor, err := bcbpix.DueValor(terms) // a *due.FieldError, naming the member of the terms
	if err != nil {
		return refuse("due." + err.Error())
	}
	return terms, bcbpix.CobVRequest{Calendario: bcbpix.DueCalendario(terms), Devedor: devedor, Valor: valor,
		Chave: key, SolicitacaoPagador: truncate(req.PayerQuestion, 140)}, nil
}

func (c *connector) getCobV(ctx context.Context, txid string) (*bcbpix.CobV, error) {
	res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, "/v2/cobv/"+txid, nil)
	if err != nil {
		return nil, err
	}
	var cv bcbpix.CobV
	if err := decode(providerclient.OpRead, res, &cv); err != nil {
		return nil, absentAs(err, res, problemCobVAbsent, problemAbsent)
	}
	return &cv, nil
}

// readCobV reads the due-date charge ref names; a paid one's amount is
// what was paid, and who paid it comes from the list of due-date charges
// as it does for a cob from the list of cobs (see paidBy).
func (c *connector) readCobV(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	txid, err := refID(ref, txidPattern)
	if err != nil {
		return nil, err
	}
	cv, err := c.getCobV(ctx, txid)
	if err != nil {
		return nil, err
	}
	t := cobvTransaction(*cv)
	if t.Status == providerclient.StatusPaid {
		if err := c.paidBy(ctx, bcbpix.PathCobVList, cv.Txid, cv.Calendario.Criacao, &t); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// cobvTransaction is a due-date charge read back, as a cob is: pending,
// its original amount; paid, the amount, end-to-end id and time of the PIX
// that paid it.
func cobvTransaction(cv bcbpix.CobV) providerclient.Transaction {
	return cobTransaction(bcbpix.Cob{Txid: cv.Txid, Status: cv.Status, SolicitacaoPagador: cv.SolicitacaoPagador,
		Valor: bcbpix.Valor{Original: cv.Valor.Original}, Pix: cv.Pix})
}

// cobvExpiry is when the charge stops being payable: the end, in Brasília,
// of the last day its answered calendario allows (terms' where the answer
// does not say).
func cobvExpiry(cv bcbpix.CobV, terms due.Terms) time.Time {
	if d, err := due.ParseDate(cv.Calendario.DataDeVencimento); err == nil {
		terms.Date = d
	}
	if n := cv.Calendario.ValidadeAposVencimento; n != nil && *n > 0 {
		terms.DaysAfter = *n
	}
	return terms.LastDay().End()
}
