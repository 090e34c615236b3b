package api

import (
	"strings"

	"github.com/pixgate/pixgate/api/payments"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
)

// parseChargeRequest reads a charge request's body (v1 and v2 alike) into
// a payments.ChargeRequest and reports every problem at once. The payment
// rules (the amount against the cash-in fee) are payments'.
func (s *Server) parseChargeRequest(body object) (payments.ChargeRequest, error) {
	var r payments.ChargeRequest
	r.Amount, _ = body.amount("amount", s.cfg.MaxAmount)
	if payer, ok := body.requiredObject("payer"); ok {
		r.Payer = payer.payer()
	}
	if ext, _ := body.externalID(); ext != nil {
		r.ExternalID = *ext
		if strings.HasPrefix(strings.ToLower(r.ExternalID), storage.CycleChargePrefix) {
			body.errs.add(body.path("external_id"), "must not begin with %q: PixGate names its recurrence cycles' charges so", storage.CycleChargePrefix)
		}
	}
	r.PostbackURL = body.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	r.PayerQuestion = body.optionalText("payerQuestion", maxShortTextLen)
	r.Split = body.split()
	r.Expiration = body.expiration()
	if r.Due = body.dueTerms(r.Amount, due.Today(s.now())); r.Due != nil && r.Expiration != nil {
		body.errs.add(body.path("expiration"), "is not taken by a due-date charge: it can be paid until its due date plus due.days_after")
	}
	if err := body.errs.err(); err != nil {
		return payments.ChargeRequest{}, err
	}
	return r, nil
}

// payer reads a payer object: a name, a valid CPF or CNPJ document
// (stored without punctuation) and an optional e-mail.
func (o object) payer() storage.Payer {
	p := storage.Payer{Name: o.name("name")}
	if doc, ok := o.requiredStr("document"); ok {
		norm, err := pix.NormalizeDocument(doc)
		if err != nil {
			o.errs.add(o.path("document"), "%s", err.Error())
		}
		p.Document = norm
	}
	p.Email = o.email("email") // after the document: problems are reported in the body's order
	return p
}
