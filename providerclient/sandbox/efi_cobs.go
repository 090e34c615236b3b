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
	from, to, p, per, ok := listQuery(w, r)
	if !ok {
		return
	}
	status := r.URL.Query().Get(bcbpix.StatusParam)
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	now := time.Now()
	var all []bcbpix.Cob
	for _, o := range f.charges(from, to, false) {
		c := f.cobOf(o, now)
		if status != "" && c.Status != status {
			continue
		}
		for i := range c.Pix {
			c.Pix[i].Pagador = efiPagador(o.paidBy)
		}
		all = append(all, c)
	}
	i, j, pages := page(len(all), p, per, 0)
	var ans bcbpix.CobsConsultadas
	ans.Parametros.Inicio, ans.Parametros.Fim = bcbpix.FormatTime(from), bcbpix.FormatTime(to)
	ans.Parametros.Paginacao = bcbpix.Paginacao{PaginaAtual: p, ItensPorPagina: per, QuantidadeDePaginas: pages, QuantidadeTotalDeItens: len(all)}
	ans.Cobs = append([]bcbpix.Cob{}, all[i:j]...)
	writeJSON(w, http.StatusOK, ans)
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
