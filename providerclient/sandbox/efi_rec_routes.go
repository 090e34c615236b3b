package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recNotFound answers the BCB's 404 of an idRec it does not hold.
func recNotFound(w http.ResponseWriter) {
	writeProblemType(w, http.StatusNotFound, "RecNaoEncontrada", "Recorrência não encontrada para o idRec informado.")
}

// recAt is the recurrence id, if there is one. Callers hold s.mu.
func (f efiFace) recAt(id string) *record {
	r := f.s.records[id]
	if r == nil || r.kind != contract.TypeRecurrence {
		return nil
	}
	return r
}

// getRec is GET /v2/rec/{idRec}: the recurrence with its BR Code; with
// ?txid= of journey 3's cob, the composite one (RecConsultaInvalida for a
// txid that is not it).
func (f efiFace) getRec(w http.ResponseWriter, r *http.Request) {
	txid := r.URL.Query().Get(bcbpix.RecTxidParam)
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.recAt(r.PathValue("idRec"))
	if rec == nil {
		recNotFound(w)
		return
	}
	if txid != "" {
		if bad := f.compositeRefusal(rec, txid); bad != nil {
			writeProblemType(w, http.StatusBadRequest, "RecConsultaInvalida", "the query is not valid", *bad)
			return
		}
	}
	writeJSON(w, http.StatusOK, f.recReadOf(rec, time.Now(), txid))
}

// listRec is GET /v2/rec: the recurrences created between inicio and fim
// (both inclusive), of the devedor's cpf or cnpj when one is given, paged
// as the other lists.
func (f efiFace) listRec(w http.ResponseWriter, r *http.Request) {
	cpf, cnpj := r.URL.Query().Get(bcbpix.RecListCPF), r.URL.Query().Get(bcbpix.RecListCNPJ)
	if cpf != "" && cnpj != "" {
		writeProblemType(w, http.StatusBadRequest, "RecConsultaInvalida", "the query is not valid",
			bcbpix.Violacao{Propriedade: bcbpix.RecListCPF, Razao: "cpf and cnpj cannot both be given"})
		return
	}
	from, to, p, per, ok := listQuery(w, r)
	if !ok {
		return
	}
	now := time.Now()
	f.s.mu.Lock()
	var all []bcbpix.Rec
	for _, rec := range f.s.order {
		if rec.kind != contract.TypeRecurrence || rec.created.Before(from) || !rec.created.Before(to) {
			continue
		}
		if doc := rec.rec.Payer.Document; (cpf == "" || doc == cpf) && (cnpj == "" || doc == cnpj) {
			all = append(all, f.recOf(rec, now))
		}
	}
	f.s.mu.Unlock()
	i, j, pages := page(len(all), p, per, 0)
	var out bcbpix.RecsConsultadas
	out.Parametros.Inicio, out.Parametros.Fim = bcbpix.FormatTime(from), bcbpix.FormatTime(to.Add(-time.Nanosecond))
	out.Parametros.Paginacao = bcbpix.Paginacao{PaginaAtual: p, ItensPorPagina: per, QuantidadeDePaginas: pages, QuantidadeTotalDeItens: len(all)}
	out.Recs = append([]bcbpix.Rec{}, all[i:j]...)
	writeJSON(w, http.StatusOK, out)
}

// recRevision is a PATCH /v2/rec/{idRec} body: the sandbox revises only
// the status (the integrator's cancel); the rest is read to refuse it.
type recRevision struct {
	Status     string          `json:"status"`
	Loc        json.RawMessage `json:"loc"`
	Vinculo    json.RawMessage `json:"vinculo"`
	Calendario json.RawMessage `json:"calendario"`
	Ativacao   json.RawMessage `json:"ativacao"`
}

// patchRec is PATCH /v2/rec/{idRec} with status CANCELADA: the integrator
// cancels, through the core. One already expired, cancelled or rejected is
// refused, as the BCB does.
func (f efiFace) patchRec(w http.ResponseWriter, r *http.Request) {
	var req recRevision
	if !efiDecode(w, r, &req) {
		return
	}
	cancel := recurrence.RecurrenceCancelled.BCB()
	switch {
	case present(req.Loc) || present(req.Vinculo) || present(req.Calendario) || present(req.Ativacao):
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "the sandbox revises a recurrence's status only",
			bcbpix.Violacao{Propriedade: "rec", Razao: "only status CANCELADA is served"})
		return
	case req.Status != cancel:
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "the status is not valid",
			bcbpix.Violacao{Propriedade: "rec.status", Razao: "must be CANCELADA", Valor: req.Status})
		return
	}
	id := r.PathValue("idRec")
	f.s.mu.Lock()
	rec := f.recAt(id)
	var st recurrence.RecurrenceStatus
	if rec != nil {
		st = recurrence.RecurrenceStatus(rec.statusAt(time.Now()))
	}
	f.s.mu.Unlock()
	switch {
	case rec == nil:
		recNotFound(w)
		return
	case st.Final():
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "A recorrência encontra-se expirada, cancelada ou rejeitada.",
			bcbpix.Violacao{Propriedade: "rec.status", Razao: "the recurrence is " + st.BCB(), Valor: req.Status})
		return
	}
	_, err := f.s.cancelRecurrence(id, recurrence.PartyIntegrator, integratorCancelCode, integratorCancelReason)
	switch {
	case errors.Is(err, ErrConflict): // it ended meanwhile
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", err.Error(),
			bcbpix.Violacao{Propriedade: "rec.status", Razao: err.Error(), Valor: req.Status})
		return
	case err != nil:
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	f.s.mu.Lock()
	out := f.recOf(rec, time.Now())
	f.s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// putWebhookRec is PUT /v2/webhookrec: where the recurrences' changes are
// notified ({webhookUrl}/rec).
func (f efiFace) putWebhookRec(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.WebhookRequest
	if !efiDecode(w, r, &req) {
		return
	}
	if u, err := url.Parse(req.WebhookURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		writeProblemType(w, http.StatusBadRequest, "WebhookRecOperacaoInvalida", "webhookUrl must be an https URL",
			bcbpix.Violacao{Propriedade: "webhookUrl", Razao: "must be a URL"})
		return
	}
	f.s.mu.Lock()
	f.s.webhooks[bcbpix.PathWebhookRec] = req.WebhookURL
	f.s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// solicDestinatario reads a solicitation's account: the participant's
// ISPB, the account (1 to 20), the branch (at most 4) and one valid cpf or
// cnpj.
func solicDestinatario(d bcbpix.SolicRecConta) (contract.PayerBank, bool) {
	b := contract.PayerBank{ISPB: d.ISPBParticipante, Branch: d.Agencia, Account: d.Conta}
	_, err := pix.NormalizeDocument(d.CPF + d.CNPJ)
	ok := ispbPattern.MatchString(b.ISPB) && b.Account != "" && len(b.Account) <= contract.MaxAccountLen &&
		len(b.Branch) <= contract.MaxBranchLen && err == nil && (d.CPF == "" || d.CNPJ == "")
	return b, ok
}
