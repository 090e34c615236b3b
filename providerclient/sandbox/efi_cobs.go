package sandbox

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// listCob is the efi face's GET /v2/cob: the charges created between
// inicio and fim, both inclusive (BCB API Pix 2.9.0, Inicio and Fim), of
// the status asked for if any, paged; each as GET /v2/cob/{txid} answers
// it, save that each PIX of a paid one names who paid it (pagador), as
// Efí's list of charges does (bcbpix.PixPagador).
func (f efiFace) listCob(w http.ResponseWriter, r *http.Request) {
	params, cobs, ok := listedCharges(f, w, r, false, f.cobOf, func(c *bcbpix.Cob) (string, []bcbpix.Pix) { return c.Status, c.Pix })
	if ok {
		writeJSON(w, http.StatusOK, bcbpix.CobsConsultadas{Parametros: params, Cobs: cobs})
	}
}

// listedCharges is one page of the cobs (due false) or the cobvs (due
// true) GET /v2/cob and GET /v2/cobv list: created between inicio and fim,
// of the status asked for if any, each rendered by of and with who paid
// each of its PIX (fields gives a rendered one's status and PIX); ok is
// false when the query was refused (answered).
func listedCharges[T any](f efiFace, w http.ResponseWriter, r *http.Request, due bool, of func(*record, time.Time) T,
	fields func(*T) (string, []bcbpix.Pix)) (params bcbpix.ListaParametros, items []T, ok bool) {
	from, to, p, per, ok := listQuery(w, r)
	if !ok {
		return params, nil, false
	}
	status := r.URL.Query().Get(bcbpix.StatusParam)
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	now := time.Now()
	var all []T
	for _, o := range f.charges(from, to, due) {
		c := of(o, now)
		st, pix := fields(&c)
		if status != "" && st != status {
			continue
		}
		for i := range pix {
			pix[i].Pagador = efiPagador(o.paidBy)
		}
		all = append(all, c)
	}
	i, j, pages := page(len(all), p, per, 0)
	params = bcbpix.ListaParametros{Inicio: bcbpix.FormatTime(from), Fim: bcbpix.FormatTime(to),
		Paginacao: bcbpix.Paginacao{PaginaAtual: p, ItensPorPagina: per, QuantidadeDePaginas: pages, QuantidadeTotalDeItens: len(all)}}
	return params, append([]T{}, all[i:j]...), true
}

// charges are the cobs (due false) or the cobvs (due true) created from
// from, inclusive, to to, exclusive. Callers hold s.mu.
func (f efiFace) charges(from, to time.Time, due bool) []*record {
	var out []*record
	for _, o := range f.s.order {
		if o.kind == contract.TypeReceivePix && (o.due != nil) == due && !o.created.Before(from) && o.created.Before(to) {
			out = append(out, o)
		}
	}
	return out
}

// efiPagador is who paid, as Efí's list of charges names them: a name and
// a CPF or a CNPJ.
func efiPagador(by contract.Party) *bcbpix.PixPagador {
	if by.Name == "" && by.TaxID == "" {
		return nil
	}
	p := &bcbpix.PixPagador{Nome: by.Name}
	if len(by.TaxID) == 11 {
		p.CPF = by.TaxID
	} else {
		p.CNPJ = by.TaxID
	}
	return p
}
