package sandbox

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// The efi face's MED routes, as Efí's SDK types them: the list of
// infractions between inicio and fim (one page: the sandbox holds few) and
// the defense of one.

// listInfracoes is GET /v2/gn/infracoes?inicio&fim: the infractions
// reported or changed between the two.
func (f efiFace) listInfracoes(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	from, to := parseEfiDate(q.Get("inicio")), parseEfiDate(q.Get("fim"))
	if from.IsZero() || to.IsZero() {
		writeProblem(w, http.StatusBadRequest, "inicio and fim are required dates",
			bcbpix.Violacao{Propriedade: "inicio", Razao: "must be an RFC 3339 date"})
		return
	}
	if page, _ := strconv.Atoi(q.Get(bcbpix.InfracoesPageParam)); page > 0 {
		f.writeInfracoes(w, from, to, nil)
		return
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	var list []bcbpix.Infracao
	for _, rec := range f.s.order {
		if rec.kind != contract.TypeInfraction {
			continue
		}
		// Dates are to the second: fim takes in the whole of its second.
		if changed := lastChange(rec); changed.Before(from) || !changed.Before(to.Add(time.Second)) {
			continue
		}
		list = append(list, f.infracaoOf(rec))
	}
	f.writeInfracoes(w, from, to, list)
}

func (f efiFace) writeInfracoes(w http.ResponseWriter, from, to time.Time, list []bcbpix.Infracao) {
	var ans bcbpix.Infracoes
	ans.Parametros.Inicio, ans.Parametros.Fim = bcbpix.FormatTime(from), bcbpix.FormatTime(to)
	ans.Parametros.Paginacao = bcbpix.Paginacao{ItensPorPagina: max(len(list), 1), QuantidadeDePaginas: 1, QuantidadeTotalDeItens: len(list)}
	ans.Infracoes = list
	if ans.Infracoes == nil {
		ans.Infracoes = []bcbpix.Infracao{}
	}
	writeJSON(w, http.StatusOK, ans)
}

// infracaoOf renders an infraction as Efí lists it. Callers hold s.mu.
func (f efiFace) infracaoOf(r *record) bcbpix.Infracao {
	i := bcbpix.Infracao{IDInfracao: r.id, Valor: bcbpix.FormatAmount(r.amount), Razao: r.description, Defesa: r.defense,
		JustificativaAnalista: r.analysis, TipoSituacao: "golpe", Chave: f.s.cfg.PixKey,
		DadosAnalise: bcbpix.DadosAnalise{Abertura: bcbpix.FormatTime(r.created), PrazoFinalizacao: bcbpix.FormatTime(r.expires)},
		CriadoEm:     bcbpix.FormatTime(r.created), AtualizadoEm: bcbpix.FormatTime(lastChange(r))}
	if charge := f.s.records[r.pixID]; charge != nil {
		i.EndToEndID, i.DataTransacao = charge.endToEndID, bcbpix.FormatTime(charge.approved)
	}
	switch r.status {
	case contract.StatusAgreed:
		i.Status = bcbpix.InfracaoAceita
	case contract.StatusDisagreed:
		i.Status = bcbpix.InfracaoRejeitada
	case contract.StatusCancelled:
		i.Status = bcbpix.InfracaoCancelada
	default:
		i.Status = bcbpix.InfracaoAberta
		if r.defense != "" {
			i.Status = bcbpix.InfracaoEmDefesa
		}
	}
	if !r.approved.IsZero() {
		i.DadosAnalise.Finalizacao = bcbpix.FormatTime(r.approved)
	}
	return i
}

// postDefesa is POST /v2/gn/infracoes/{idInfracao}/defesa.
func (f efiFace) postDefesa(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.DefesaRequest
	if !efiDecode(w, r, &req) {
		return
	}
	if strings.TrimSpace(req.Justificativa) == "" || (req.Analise != "aceito" && req.Analise != bcbpix.DefesaRejeitado) {
		writeProblem(w, http.StatusBadRequest, "analise must be aceito or rejeitado, with a justificativa",
			bcbpix.Violacao{Propriedade: "justificativa", Razao: "is required"})
		return
	}
	err := f.s.DefendInfraction(r.PathValue("idInfracao"), req.Justificativa)
	switch {
	case errors.Is(err, ErrNotFound):
		writeProblem(w, http.StatusNotFound, "no infraction has this id")
	case errors.Is(err, ErrConflict):
		writeProblem(w, http.StatusBadRequest, err.Error())
	case err != nil:
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// parseEfiDate reads an RFC 3339 time or a date (YYYY-MM-DD, the start of
// that day in UTC; as an end, its last instant).
func parseEfiDate(s string) time.Time {
	if t := bcbpix.ParseTime(s); !t.IsZero() {
		return t
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		return d
	}
	return time.Time{}
}
