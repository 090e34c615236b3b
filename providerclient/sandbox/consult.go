package sandbox

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// handleConsult is POST /v2/consult-transaction: the transaction of pix_id
// (or pix_Id), wrapped in "requestBody"; a recurrence as
// contract.Recurrence describes it, a recurrence cycle as
// contract.RecurrenceCycle does.
func (s *Sandbox) handleConsult(w http.ResponseWriter, r *http.Request) {
	var req contract.ConsultRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	id := req.ID()
	if id == "" {
		var v validation
		v.add("pix_id", "is required")
		v.write(w)
		return
	}
	if rec, err := s.Recurrence(id); err == nil {
		writeJSON(w, http.StatusOK, contract.Envelope[contract.Recurrence]{RequestBody: rec})
		return
	}
	if c, err := s.Cycle(id); err == nil {
		writeJSON(w, http.StatusOK, contract.Envelope[contract.RecurrenceCycle]{RequestBody: c})
		return
	}
	t, err := s.Transaction(id)
	if err != nil {
		writeError(w, http.StatusNotFound, "transaction not found")
		return
	}
	writeJSON(w, http.StatusOK, contract.Envelope[Transaction]{RequestBody: t})
}

// Transaction returns the current state of a charge, payment or refund.
func (s *Sandbox) Transaction(id string) (Transaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil {
		return Transaction{}, ErrNotFound
	}
	return s.view(r, time.Now()), nil
}
