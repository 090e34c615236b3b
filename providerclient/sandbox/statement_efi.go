package sandbox

import (
	"net/http"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// The efi face's lists (BCB API Pix 2.9.0 GET /pix; Efí's GET
// /v2/gn/pix/enviados), from the same statement as every face: what an
// injected discrepancy changes in a statement it changes here (a PIX or a
// devolução shown with another valor, left out, or listed twice).

// listQuery reads inicio, fim and the paging of a list; ok is false when
// it answered 400.
func listQuery(w http.ResponseWriter, r *http.Request) (from, to time.Time, p, per int, ok bool) {
	q := r.URL.Query()
	from, to = bcbpix.ParseTime(q.Get("inicio")), bcbpix.ParseTime(q.Get("fim"))
	var bad []bcbpix.Violacao
	if from.IsZero() {
		bad = append(bad, bcbpix.Violacao{Propriedade: "inicio", Razao: "must be an RFC 3339 date", Valor: q.Get("inicio")})
	}
	if to.IsZero() || to.Before(from) {
		bad = append(bad, bcbpix.Violacao{Propriedade: "fim", Razao: "must be an RFC 3339 date not before inicio", Valor: q.Get("fim")})
	}
	p, per = 0, 100
	if s := q.Get(bcbpix.PageParam); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			p = n
		} else {
			bad = append(bad, bcbpix.Violacao{Propriedade: bcbpix.PageParam, Razao: "must be 0 or more", Valor: s})
		}
	}
	if s := q.Get(bcbpix.PerPageParam); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= bcbpix.MaxItensPorPagina {
			per = n
		} else {
			bad = append(bad, bcbpix.Violacao{Propriedade: bcbpix.PerPageParam, Razao: "must be from 1 to 1000", Valor: s})
		}
	}
	if len(bad) > 0 {
		writeProblem(w, http.StatusBadRequest, "the list's parameters are not valid", bad...)
		return from, to, 0, 0, false
	}
	// fim is inclusive (BCB API Pix 2.9.0, Fim): the statement's span ends
	// just after it.
	return from, to.Add(time.Nanosecond), p, per, true
}

// listPix is GET /v2/pix: the PIX received between inicio and fim, each
// with its devoluções; with devolucaoPresente=true only those with some
// (listed whatever their own line shows).
func (f efiFace) listPix(w http.ResponseWriter, r *http.Request) {
	from, to, p, per, ok := listQuery(w, r)
	if !ok {
		return
	}
	refunds := r.URL.Query().Get(bcbpix.RefundsParam) == "true"
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []bcbpix.Pix
	if refunds {
		for _, c := range s.order {
			if at, ok := settledAt(c); ok && c.kind == contract.TypeReceivePix && !at.Before(from) && at.Before(to) {
				if px := f.statedPix(c); len(px.Devolucoes) > 0 {
					all = append(all, px)
				}
			}
		}
	} else {
		lines, _, _ := s.statement(from, to)
		for _, l := range lines {
			if cashIn(l.r.kind) {
				px := f.statedPix(l.r)
				px.Valor = bcbpix.FormatAmount(l.amount)
				all = append(all, px)
			}
		}
	}
	i, j, pages := page(len(all), p, per, 0)
	var ans bcbpix.PixConsultados
	ans.Parametros.Inicio, ans.Parametros.Fim = bcbpix.FormatTime(from), bcbpix.FormatTime(to)
	ans.Parametros.Paginacao = bcbpix.Paginacao{PaginaAtual: p, ItensPorPagina: per, QuantidadeDePaginas: pages, QuantidadeTotalDeItens: len(all)}
	ans.Pix = append([]bcbpix.Pix{}, all[i:j]...)
	writeJSON(w, http.StatusOK, ans)
}

// statedPix is charge c's PIX with its devoluções as the statements show
// them. Callers hold s.mu.
func (f efiFace) statedPix(c *record) bcbpix.Pix {
	px := bcbpix.Pix{EndToEndID: c.endToEndID, Txid: c.id, Valor: bcbpix.FormatAmount(c.amount),
		Chave: f.s.cfg.PixKey, Horario: bcbpix.FormatTime(c.approved)}
	for _, o := range f.s.order {
		if !returnsMoney(o.kind) || o.pixID != c.id {
			continue
		}
		if _, settled := settledAt(o); !settled {
			px.Devolucoes = append(px.Devolucoes, devolucaoOf(o))
			continue
		}
		for _, l := range f.s.shown(o) {
			d := devolucaoOf(o)
			d.Valor = bcbpix.FormatAmount(l.amount)
			px.Devolucoes = append(px.Devolucoes, d)
		}
	}
	return px
}

// listSent is GET /v2/gn/pix/enviados: the PIX sent (asked for) between
// inicio and fim, as the bare array Efí's SDK types the answer.
func (f efiFace) listSent(w http.ResponseWriter, r *http.Request) {
	from, to, p, per, ok := listQuery(w, r)
	if !ok {
		return
	}
	s := f.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []bcbpix.Sent
	for _, o := range s.order {
		if o.kind != contract.TypePayment || o.created.Before(from) || !o.created.Before(to) {
			continue
		}
		if _, settled := settledAt(o); !settled {
			all = append(all, f.sentOf(o))
			continue
		}
		for _, l := range s.shown(o) {
			sent := f.sentOf(o)
			sent.Valor = bcbpix.FormatAmount(l.amount)
			all = append(all, sent)
		}
	}
	i, j, _ := page(len(all), p, per, 0)
	writeJSON(w, http.StatusOK, append([]bcbpix.Sent{}, all[i:j]...))
}
