package efi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/pix"
)

// payerPages bounds the pages of the list of charges read for one payer:
// at 1000 charges a page, the charges created in the same two seconds.
const payerPages = 5

// paidBy completes a paid charge t (cob or cobv, read by its txid) with
// who paid it. Efí's charge read names no payer, and neither does the BCB's
// Pix; Efí's list of charges does, in each PIX of a charge
// (bcbpix.PixPagador). So the connector lists (list: the list of cobs or
// of cobvs) the charges CONCLUIDA created within a second of this one's
// calendario.criacao (the list's inicio and fim filter by creation) and
// takes the pagador of the PIX of the same end-to-end id. Found nowhere (a
// list that does not carry it), the charge is answered as its read says. A
// failed list leaves the read unanswered: the charge exists, so no refusal
// of the list proves anything absent.
func (c *connector) paidBy(ctx context.Context, list, txid, criacao string, t *providerclient.Transaction) error {
	created := bcbpix.ParseTime(criacao)
	if created.IsZero() || t.EndToEndID == "" {
		return nil
	}
	q := url.Values{"inicio": {bcbpix.FormatTime(created.Add(-time.Second))}, "fim": {bcbpix.FormatTime(created.Add(time.Second))},
		bcbpix.StatusParam: {bcbpix.CobConcluida}, bcbpix.PerPageParam: {strconv.Itoa(bcbpix.MaxItensPorPagina)}}
	for page := 0; page < payerPages; page++ {
		q.Set(bcbpix.PageParam, strconv.Itoa(page))
		res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, list+"?"+q.Encode(), nil)
		if err != nil {
			return err
		}
		var l chargeList
		if err := decode(providerclient.OpRead, res, &l); err != nil {
			return providerclient.Unanswered(err, "who paid the charge")
		}
		for _, other := range l.Cobs {
			if other.Txid != txid {
				continue
			}
			for _, p := range other.Pix {
				if p.EndToEndID == t.EndToEndID && p.Pagador != nil {
					t.Payer, t.PayerAccount = pagador(*p.Pagador)
				}
			}
			return nil
		}
		if len(l.Cobs) == 0 || page+1 >= l.Parametros.Paginacao.QuantidadeDePaginas {
			return nil
		}
	}
	return nil
}

// chargeList is what paidBy reads of a list of charges (bcbpix's
// CobsConsultadas, CobsVConsultadas): each charge's txid and PIX, and the
// paging.
type chargeList struct {
	Parametros struct {
		Paginacao bcbpix.Paginacao `json:"paginacao"`
	} `json:"parametros"`
	Cobs []struct {
		Txid string       `json:"txid"`
		Pix  []bcbpix.Pix `json:"pix"`
	} `json:"cobs"`
}

// pagador is who paid, and the account it came from as far as Efí names
// it (its holder: no institution).
func pagador(p bcbpix.PixPagador) (payer, account *providerclient.Party) {
	out := providerclient.Party{Name: strings.TrimSpace(p.Nome)}
	if doc, err := pix.NormalizeDocument(p.CPF + p.CNPJ); err == nil && (p.CPF == "" || p.CNPJ == "") {
		out.Document = doc
	}
	if out.Name == "" && out.Document == "" {
		return nil, nil
	}
	a := out
	return &out, &a
}
