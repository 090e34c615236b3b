package efi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The search for a recurrence an earlier create registered.
const (
	// recSearchSkew widens the search on both sides for the clocks of
	// PixGate and Efí, which need not agree.
	recSearchSkew = 10 * time.Minute
	// recSearchDays is how far back the search reaches for an id that
	// carries no time (PixGate's are UUIDv7, which do).
	recSearchDays = recurrence.ConsentMaxDays + 1
	// recPerPage and recMaxPages bound the list read: a payer with more
	// recurrences in the window than that is a search that cannot end.
	recPerPage  = 100
	recMaxPages = 50
)

// findRec is the recurrence an earlier create registered under PixGate's
// id (in's vinculo.contrato), or nil when there is none: the payer's
// recurrences (GET /v2/rec, filtered by the devedor's cpf or cnpj)
// created between the id's own time, less the skew, and now are listed
// page by page. A list that fails fails the create: nothing is created
// that could be a second one.
func (c *connector) findRec(ctx context.Context, id string, in bcbpix.RecRequest) (*bcbpix.Rec, error) {
	op := providerclient.OpCreateRecurrence
	now := time.Now()
	q := url.Values{}
	q.Set("inicio", bcbpix.FormatTime(recSearchSince(id, now)))
	q.Set("fim", bcbpix.FormatTime(now.Add(recSearchSkew)))
	if d := in.Vinculo.Devedor; d.CPF != "" {
		q.Set(bcbpix.RecListCPF, d.CPF)
	} else {
		q.Set(bcbpix.RecListCNPJ, d.CNPJ)
	}
	q.Set(bcbpix.PerPageParam, strconv.Itoa(recPerPage))
	for page := 0; page < recMaxPages; page++ {
		q.Set(bcbpix.PageParam, strconv.Itoa(page))
		res, err := c.call(ctx, op, http.MethodGet, bcbpix.PathRecList+"?"+q.Encode(), nil)
		if err != nil {
			return nil, err
		}
		var list bcbpix.RecsConsultadas
		if err := decode(op, res, &list); err != nil {
			return nil, err
		}
		for _, r := range list.Recs {
			if r.Vinculo.Contrato == in.Vinculo.Contrato {
				return &r, nil
			}
		}
		if page+1 >= list.Parametros.Paginacao.QuantidadeDePaginas {
			return nil, nil
		}
	}
	return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
		Message: "the payer's recurrences span more pages than are read; an earlier one under this id may be among them"}
}

// recSearchSince is when a recurrence under PixGate's id can have been
// created at the earliest: the time a UUIDv7 carries, less the skew, or
// recSearchDays before now.
func recSearchSince(id string, now time.Time) time.Time {
	u, err := uuid.Parse(id)
	if err != nil || u.Version() != 7 {
		return now.AddDate(0, 0, -recSearchDays)
	}
	sec, nsec := u.Time().UnixTime()
	return time.Unix(sec, nsec).Add(-recSearchSkew)
}

// ensureSolicitation sends the push journey's consent request (POST
// /v2/solicrec) to the payer's account, open until the consent's deadline,
// unless the recurrence was answered already or has a request still open
// (an earlier try's). The BCB refuses a second open request for the same
// recurrence; a refusal is read back, and a request found open, or a
// refusal naming solicrec.idRec, counts as sent.
func (c *connector) ensureSolicitation(ctx context.Context, req providerclient.RecurrenceRequest, rec bcbpix.Rec) error {
	op := providerclient.OpCreateRecurrence
	if rec.Status != recurrence.RecurrenceCreated.BCB() || openSolicitation(rec) {
		return nil
	}
	deadline, err := recurrence.ConsentDeadline(time.Now(), req.ConsentExpiresAt)
	if err != nil {
		return rejected(op, err.Error())
	}
	in := bcbpix.SolicRecRequest{IDRec: rec.IDRec, Calendario: bcbpix.SolicRecPrazo{DataExpiracaoSolicitacao: bcbpix.FormatTime(deadline)},
		Destinatario: bcbpix.SolicRecConta{Agencia: req.PayerAccount.Branch, Conta: req.PayerAccount.Number,
			ISPBParticipante: req.PayerAccount.ISPB, CPF: rec.Vinculo.Devedor.CPF, CNPJ: rec.Vinculo.Devedor.CNPJ}}
	res, err := c.call(ctx, op, http.MethodPost, bcbpix.PathSolicRec, in)
	if err != nil {
		return err
	}
	var s bcbpix.SolicRec
	err = decode(op, res, &s)
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		return err
	}
	if now, rerr := c.getRec(ctx, op, rec.IDRec); rerr == nil && openSolicitation(*now) {
		return nil
	}
	if namesProperty(res, "solicrec.idRec") {
		return nil
	}
	return err
}

// openSolicitation reports whether rec lists a consent request not yet
// answered, expired or cancelled.
func openSolicitation(rec bcbpix.Rec) bool {
	open := []string{bcbpix.SolicCriada, bcbpix.SolicEnviada, bcbpix.SolicRecebida}
	return slices.ContainsFunc(rec.Solicitacao, func(s bcbpix.SolicRec) bool { return slices.Contains(open, s.Status) })
}

// namesProperty reports whether a refusal's violations name property.
func namesProperty(res *providerclient.Answer, property string) bool {
	var p bcbpix.Problem
	if json.Unmarshal(res.Body, &p) != nil {
		return false
	}
	return slices.ContainsFunc(p.Violacoes, func(v bcbpix.Violacao) bool { return v.Propriedade == property })
}
