package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The family face's cycles (PixGate's extension of the family's contract,
// as its recurrences): create one at contract.PathRecurrenceCycle under
// the caller's external_id, retry it, cancel it, read it with
// consult-transaction; each answered and notified as a
// contract.RecurrenceCycle. Refusals answer as the face's other routes:
// 422 naming the fields, 404, 409 with the reason, 503.

// cycleRequest reads the amount raw, to validate it exactly.
type cycleRequest struct {
	contract.RecurrenceCycleRequest
	Amount json.RawMessage `json:"amount"`
}

// handleCreateCycle is POST contract.PathRecurrenceCycle. A known
// external_id returns the cycle created for it, whatever this request
// says (the first wins, as for charges).
func (s *Sandbox) handleCreateCycle(w http.ResponseWriter, r *http.Request) {
	var req cycleRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	sp := cycleSpec{recurrence: strings.TrimSpace(req.TransactionID), externalID: strings.TrimSpace(req.ExternalID),
		description: strings.TrimSpace(req.Description), postbackURL: req.PostbackURL}
	if sp.recurrence == "" {
		v.add("transactionId", "is required")
	}
	if sp.externalID == "" {
		v.add("external_id", "is required")
	}
	v.maxLen("external_id", sp.externalID, contract.MaxExternalIDLen)
	sp.dueDate, _ = v.day("dueDate", req.DueDate, true)
	if sp.amount = v.amount("amount", req.Amount); !v.failed() && sp.amount <= 0 {
		v.add("amount", "must be greater than zero")
	}
	v.maxLen("description", sp.description, contract.MaxRecurrenceDescriptionLen)
	v.url("postbackUrl", sp.postbackURL)
	if v.failed() {
		v.write(w)
		return
	}
	rec, _, err := s.createCycle(sp, time.Now())
	s.writeCycle(w, rec, err)
}

// handleRetryCycle is POST contract.PathRecurrenceCycleRetry.
func (s *Sandbox) handleRetryCycle(w http.ResponseWriter, r *http.Request) {
	var req contract.RecurrenceCycleRetry
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	id := required(&v, "transactionId", req.TransactionID)
	day, _ := v.day("date", req.Date, true)
	if v.failed() {
		v.write(w)
		return
	}
	rec, err := s.retryCycle(id, day)
	s.writeCycle(w, rec, err)
}

// handleCancelCycle is POST contract.PathRecurrenceCycleCancel: the
// integrator cancels a cycle; cancelling a cancelled one is no error.
func (s *Sandbox) handleCancelCycle(w http.ResponseWriter, r *http.Request) {
	var req contract.RecurrenceCycleCancel
	if !decodeJSON(w, r, &req) {
		return
	}
	var v validation
	id := required(&v, "transactionId", req.TransactionID)
	if v.failed() {
		v.write(w)
		return
	}
	rec, err := s.cancelCycle(id, recurrence.PartyIntegrator)
	s.writeCycle(w, rec, err)
}

// required is a required member, trimmed, named in v when empty.
func required(v *validation, field, s string) string {
	if s = strings.TrimSpace(s); s == "" {
		v.add(field, "is required")
	}
	return s
}

// writeCycle answers a cycle route: the cycle, or its refusal.
func (s *Sandbox) writeCycle(w http.ResponseWriter, rec *record, err error) {
	if err != nil {
		writeControl(w, Transaction{}, err)
		return
	}
	s.mu.Lock()
	v := cycleView(rec)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// cycleNotification is the family face's notification of cycle r's
// current state, and the CREATED one (its first attempt REQUESTED) the
// out-of-order fault sends last. Callers hold s.mu.
func cycleNotification(r *record) (string, []byte, []byte) {
	v := cycleView(r)
	body, _ := json.Marshal(contract.Envelope[contract.RecurrenceCycle]{RequestBody: v})
	first := r.cyc.Attempts[0]
	v.Status, v.Retries, v.RejectionCode, v.CancelledBy = string(recurrence.CycleCreated), 0, "", ""
	v.EndToEndID, v.PaidAt, v.Payer = "", "", nil
	v.Attempts = []contract.CycleAttempt{{Type: string(first.Kind), SettleOn: first.SettleOn.String(),
		Status: string(recurrence.AttemptRequested)}}
	stale, _ := json.Marshal(contract.Envelope[contract.RecurrenceCycle]{RequestBody: v})
	return r.postbackURL, body, stale
}
