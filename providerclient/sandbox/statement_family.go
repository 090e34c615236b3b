package sandbox

import (
	"net/http"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// handleStatement is POST /v2/statement (PixGate's extension of the
// family's contract): a page of a day's statement.
func (s *Sandbox) handleStatement(w http.ResponseWriter, r *http.Request) {
	var req contract.StatementRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	day, err := providerclient.ParseDay(req.Date)
	if err != nil {
		v.add("date", "must be a day, YYYY-MM-DD")
	}
	req.Page, req.PerPage = v.paging(req.Page, req.PerPage, contract.StatementPerPage, contract.StatementMaxPerPage)
	if v.failed() {
		v.write(w)
		return
	}
	writeJSON(w, http.StatusOK, s.Statement(day, req.Page, req.PerPage))
}

// Statement is page p (from 1) of the statement of day, perPage lines a
// page, in the family's shape.
func (s *Sandbox) Statement(day providerclient.Day, p, perPage int) contract.Statement {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, opening, closing := s.statement(day.Start(), day.End())
	from, to, pages := page(len(lines), p, perPage, 1)
	st := contract.Statement{Date: day.String(), Page: p, PerPage: perPage, Pages: pages, Total: len(lines),
		OpeningBalance: opening, ClosingBalance: closing, Lines: make([]contract.StatementLine, 0, to-from)}
	for _, l := range lines[from:to] {
		status := contract.StatusCompleted
		if cashIn(l.r.kind) {
			status = contract.StatusPaid
		}
		st.Lines = append(st.Lines, contract.StatementLine{TransactionType: l.r.kind, TransactionID: l.r.id,
			ExternalID: l.r.externalID, EndToEndID: l.r.endToEndID, Amount: l.amount, Status: status,
			DateApproval: contract.FormatDate(l.r.approved)})
	}
	return st
}
