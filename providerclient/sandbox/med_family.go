package sandbox

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// handleInfractions is POST /v2/pix/infractions/list (PixGate's extension
// of the family's contract): a page of the infractions opened or changed
// since a time, for a receiver whose notification of one was lost.
func (s *Sandbox) handleInfractions(w http.ResponseWriter, r *http.Request) {
	var req contract.InfractionsRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	since := contract.ParseDate(req.Since)
	if since.IsZero() {
		v.add("since", "must be a date, YYYY-MM-DD HH:MM:SS")
	}
	req.Page, req.PerPage = v.paging(req.Page, req.PerPage, contract.InfractionsPerPage, contract.InfractionsMaxPerPage)
	if v.failed() {
		v.write(w)
		return
	}
	writeJSON(w, http.StatusOK, s.Infractions(since, req.Page, req.PerPage))
}

// Infractions is page p (from 1) of the infractions opened or changed at
// or after since, perPage a page, in the order they were opened (see
// contract.InfractionsPage), each as consult-transaction describes it.
func (s *Sandbox) Infractions(since time.Time, p, perPage int) contract.InfractionsPage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var list []*record
	for _, r := range s.order {
		if r.kind == contract.TypeInfraction && !lastChange(r).Before(since) {
			list = append(list, r)
		}
	}
	from, to, pages := page(len(list), p, perPage, 1)
	out := contract.InfractionsPage{Since: contract.FormatDate(since), Page: p, PerPage: perPage, Pages: pages,
		Total: len(list), Infractions: make([]Transaction, 0, to-from)}
	now := time.Now()
	for _, r := range list[from:to] {
		out.Infractions = append(out.Infractions, s.view(r, now))
	}
	return out
}
