package efi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// Efí reports MED infractions by list only (GET /v2/gn/infracoes over a
// window of dates; no webhook, no read by id) and takes one defense per
// infraction (POST /v2/gn/infracoes/{id}/defesa). When one is agreed, Efí
// returns the money itself: a devolução of natureza MED_FRAUDE (or
// MED_OPERACIONAL) on the disputed PIX, read like any refund.

// infractionWindow is how far back a read or a poll looks: the MED takes
// infractions up to 80 days after the PIX, and closes them within days.
const infractionWindow = 100 * 24 * time.Hour

// maxInfractionPages bounds one poll (a page is the provider's default
// size).
const maxInfractionPages = 50

func (c *connector) ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error) {
	list, err := c.listInfracoes(ctx, since, time.Now().Add(time.Minute))
	if err != nil {
		return nil, err
	}
	out := make([]providerclient.Infraction, 0, len(list))
	for _, i := range list {
		inf, err := c.infraction(ctx, i)
		if err != nil {
			return nil, err
		}
		out = append(out, *inf)
	}
	return out, nil
}

// ReadInfraction finds the infraction in the list of the last
// infractionWindow.
func (c *connector) ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	now := time.Now()
	list, err := c.listInfracoes(ctx, now.Add(-infractionWindow), now.Add(time.Minute))
	if err != nil {
		return nil, err
	}
	for _, i := range list {
		if i.IDInfracao == ref.ProviderID {
			return c.infraction(ctx, i)
		}
	}
	return nil, &providerclient.Error{Op: providerclient.OpReadInfraction, Kind: providerclient.ErrNotFound,
		Message: "no infraction " + ref.ProviderID + " in the last " + strconv.Itoa(int(infractionWindow.Hours()/24)) + " days"}
}

// listInfracoes reads every page of the list between from and to (dates
// go to the second: callers ask a minute past now, so that what changed
// this very second is in).
func (c *connector) listInfracoes(ctx context.Context, from, to time.Time) ([]bcbpix.Infracao, error) {
	op := providerclient.OpListInfractions
	var all []bcbpix.Infracao
	for page := 0; page < maxInfractionPages; page++ {
		q := url.Values{"inicio": {bcbpix.FormatTime(from)}, "fim": {bcbpix.FormatTime(to)}}
		q.Set(bcbpix.InfracoesPageParam, strconv.Itoa(page))
		res, err := c.call(ctx, op, http.MethodGet, bcbpix.PathInfracoes+"?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		var ans bcbpix.Infracoes
		if err := decode(op, res, &ans); err != nil {
			return nil, err
		}
		all = append(all, ans.Infracoes...)
		if p := ans.Parametros.Paginacao; len(ans.Infracoes) == 0 || p.PaginaAtual+1 >= p.QuantidadeDePaginas {
			break
		}
	}
	return all, nil
}

// infraction translates one listed infraction; an agreed one carries the
// MED return Efí made of it, once Efí shows it on the disputed PIX.
func (c *connector) infraction(ctx context.Context, i bcbpix.Infracao) (*providerclient.Infraction, error) {
	inf := &providerclient.Infraction{
		ProviderID: i.IDInfracao, Charge: providerclient.Ref{Kind: providerclient.KindCharge, EndToEndID: i.EndToEndID},
		Status: infractionStatus(i.Status), Reason: i.Razao, Analysis: i.JustificativaAnalista, Defense: i.Defesa,
		ReportedAt: bcbpix.ParseTime(i.DadosAnalise.Abertura), DueAt: bcbpix.ParseTime(i.DadosAnalise.PrazoFinalizacao),
		ClosedAt: bcbpix.ParseTime(i.DadosAnalise.Finalizacao),
	}
	if inf.ReportedAt.IsZero() {
		inf.ReportedAt = bcbpix.ParseTime(i.CriadoEm)
	}
	inf.Amount, _ = bcbpix.ParseAmount(i.Valor)
	if inf.Status != providerclient.InfractionAgreed || !e2ePattern.MatchString(i.EndToEndID) {
		return inf, nil
	}
	res, err := c.call(ctx, providerclient.OpReadInfraction, http.MethodGet, "/v2/pix/"+i.EndToEndID, nil)
	if err != nil {
		return nil, err
	}
	var p bcbpix.Pix
	if err := decode(providerclient.OpReadInfraction, res, &p); err != nil {
		return nil, err
	}
	for _, d := range p.Devolucoes {
		if medNature(d.Natureza) {
			t := devolucaoTransaction(d)
			inf.Return = &t
			break
		}
	}
	return inf, nil
}

// DefendInfraction contests an infraction: Efí's analysis "rejeitado"
// with the integrator's text as its justification.
func (c *connector) DefendInfraction(ctx context.Context, ref providerclient.InfractionRef, text string) error {
	op := providerclient.OpDefendInfraction
	res, err := c.call(ctx, op, http.MethodPost, "/v2/gn/infracoes/"+url.PathEscape(ref.ProviderID)+"/defesa",
		bcbpix.DefesaRequest{Analise: bcbpix.DefesaRejeitado, Justificativa: text})
	if err != nil {
		return err
	}
	if !res.OK() {
		return res.Failure(op, message(res))
	}
	return nil
}

// LookupKey: Efí's API offers no read of the DICT.
func (c *connector) LookupKey(context.Context, string, string) (*providerclient.KeyHolder, error) {
	return nil, &providerclient.Error{Op: providerclient.OpLookupKey, Kind: providerclient.ErrUnsupported}
}

// infractionStatus maps Efí's statuses: ABERTA and EM_DEFESA are open,
// ACEITA is agreed (the money goes back), REJEITADA disagreed,
// CANCELADA_EFI cancelled.
func infractionStatus(s string) providerclient.InfractionStatus {
	switch s {
	case bcbpix.InfracaoAceita:
		return providerclient.InfractionAgreed
	case bcbpix.InfracaoRejeitada:
		return providerclient.InfractionDisagreed
	case bcbpix.InfracaoCancelada:
		return providerclient.InfractionCancelled
	}
	return providerclient.InfractionOpen
}

func medNature(n string) bool { return n == bcbpix.NaturezaMedFraude || n == bcbpix.NaturezaMedOperac }
