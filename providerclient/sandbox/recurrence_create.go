package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recurrenceRequest reads the amounts raw, to validate them exactly.
type recurrenceRequest struct {
	contract.RecurrenceRequest
	Amount        json.RawMessage `json:"amount"`
	MinimumAmount json.RawMessage `json:"minimumAmount"`
	FirstPayment  json.RawMessage `json:"firstPayment"`
}

// handleCreateRecurrence is POST /v2/pix/recurrence (PixGate's extension of
// the family's contract): a CREATED recurrence, with a BR Code for a QR
// journey, and for journey QR_WITH_PAYMENT its first payment's charge,
// created first. A known external_id returns the recurrence created for
// it, whatever this request says (the first wins, as for charges), even
// once its start has passed.
func (s *Sandbox) handleCreateRecurrence(w http.ResponseWriter, r *http.Request) {
	var req recurrenceRequest
	if !decodeJSON(w, r, &req) {
		return
	}
	req.ExternalID = strings.TrimSpace(req.ExternalID)
	if old, ok := s.existingRecurrence(req.ExternalID); ok {
		writeJSON(w, http.StatusOK, old)
		return
	}
	now := time.Now()
	sp, v := checkRecurrence(req, now)
	first := v.checkFirstPayment(req.FirstPayment, sp.data.Journey)
	if v.failed() {
		v.write(w)
		return
	}
	if err := s.createFirstPayment(&sp, first, now); err != nil {
		writeCreateError(w, err)
		return
	}
	rec, _, err := s.createRecurrence(sp, now)
	if err != nil {
		writeCreateError(w, err)
		return
	}
	s.mu.Lock()
	resp := recurrenceAnswer(rec, now)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

// checkRecurrence validates a request on the day of now, with the core's
// rules (the calendar, the amount, the consent's deadline) under the
// family's field names, and returns what to create.
func checkRecurrence(req recurrenceRequest, now time.Time) (recurrenceSpec, validation) {
	var v validation
	if req.ExternalID == "" {
		v.add("external_id", "is required")
	}
	v.maxLen("external_id", req.ExternalID, contract.MaxExternalIDLen)
	d := RecurrenceData{
		Journey:     recurrence.Journey(upper(req.Journey)),
		RetryPolicy: recurrence.RetryPolicy(upper(req.RetryPolicy)),
		Contract:    strings.TrimSpace(req.Contract),
		Calendar:    recurrence.Calendar{Periodicity: recurrence.Periodicity(upper(req.Periodicity)), Count: req.Count},
	}
	if !slices.Contains(offeredJourneys, d.Journey) {
		v.add("journey", fmt.Sprintf("must be one of %v", offeredJourneys))
	}
	var startOK, endOK bool
	d.Calendar.Start, startOK = v.day("start", req.Start, true)
	d.Calendar.End, endOK = v.day("end", req.End, false)
	if startOK && endOK {
		v.core(d.Calendar.Validate(due.Today(now)))
	}
	if present(req.Amount) {
		d.Amount.Fixed = v.amount("amount", req.Amount)
	}
	if present(req.MinimumAmount) {
		d.Amount.Floor = v.amount("minimumAmount", req.MinimumAmount)
	}
	v.core(d.Amount.Validate())
	if d.RetryPolicy == "" {
		d.RetryPolicy = recurrence.RetryNone
	}
	if !d.RetryPolicy.Valid() {
		v.add("retryPolicy", fmt.Sprintf("must be %s or %s", recurrence.RetryNone, recurrence.RetryThreeInSeven))
	}
	d.Payer = v.recurrencePayer(req.Payer, d.Journey == recurrence.JourneyPush)
	v.maxLen("contract", d.Contract, contract.MaxContractLen)
	description := strings.TrimSpace(req.Description)
	v.maxLen("description", description, contract.MaxRecurrenceDescriptionLen)
	var requested time.Time
	if req.ConsentExpiresAt != "" {
		if requested = contract.ParseDate(req.ConsentExpiresAt); requested.IsZero() {
			v.add("consentExpiresAt", "must be a date, YYYY-MM-DD HH:MM:SS")
		}
	}
	deadline, err := recurrence.ConsentDeadline(now, requested)
	v.core(err)
	v.url("postbackUrl", req.PostbackURL)
	return recurrenceSpec{externalID: req.ExternalID, description: description, postbackURL: req.PostbackURL,
		deadline: deadline, data: d}, v
}

// ispbPattern is an ISPB as the BCB writes it (DadosBancarios.ispbParticipante).
var ispbPattern = regexp.MustCompile(`^[0-9A-Z]{8}$`)

// recurrencePayer checks the payer: a name and a CPF or CNPJ always, an
// email when given, and the account (required for the push journey).
func (v *validation) recurrencePayer(p contract.RecurrencePayer, push bool) contract.RecurrencePayer {
	out := contract.RecurrencePayer{Name: strings.TrimSpace(p.Name), Email: strings.TrimSpace(p.Email)}
	if out.Name == "" {
		v.add("payer.name", "is required")
	}
	v.maxLen("payer.name", out.Name, contract.MaxNameLen)
	if doc, err := pix.NormalizeDocument(strings.TrimSpace(p.Document)); err != nil {
		v.addErr("payer.document", err)
	} else {
		out.Document = doc
	}
	v.maxLen("payer.email", out.Email, contract.MaxEmailLen)
	if out.Email != "" && !strings.Contains(out.Email, "@") {
		v.add("payer.email", "must be an email address")
	}
	if p.Bank == nil {
		if push {
			v.add("payer.bank", "is required for the PUSH journey")
		}
		return out
	}
	b := contract.PayerBank{ISPB: strings.TrimSpace(p.Bank.ISPB), Branch: strings.TrimSpace(p.Bank.Branch),
		Account: strings.TrimSpace(p.Bank.Account)}
	if !ispbPattern.MatchString(b.ISPB) {
		v.add("payer.bank.ispb", "must be 8 digits or capital letters")
	}
	v.maxLen("payer.bank.branch", b.Branch, contract.MaxBranchLen)
	if b.Account == "" {
		v.add("payer.bank.account", "is required")
	}
	v.maxLen("payer.bank.account", b.Account, contract.MaxAccountLen)
	out.Bank = &b
	return out
}

// day reads a day, YYYY-MM-DD, and reports whether it is usable (absent
// and optional is).
func (v *validation) day(field, s string, required bool) (due.Date, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		if required {
			v.add(field, "is required")
		}
		return due.Date{}, !required
	}
	d, err := due.ParseDate(s)
	if err != nil {
		v.add(field, "must be a date, YYYY-MM-DD")
		return due.Date{}, false
	}
	return d, true
}

// coreFields renames the core's fields (v1's names) to the family's.
var coreFields = strings.NewReplacer("calendar.", "", "amount.fixed", "amount", "amount.floor", "minimumAmount",
	"consent_expires_at", "consentExpiresAt")

// core records a refusal of the core's rules under the family's field
// names.
func (v *validation) core(err error) {
	var fe *recurrence.FieldError
	switch {
	case err == nil:
	case errors.As(err, &fe):
		v.add(coreFields.Replace(fe.Field), coreFields.Replace(fe.Message))
	default:
		v.addErr("request", err)
	}
}

// present reports whether a raw member was sent, null counting as absent.
func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// upper is a name of the request (a journey, a periodicity, a policy) as
// the core's types spell it.
func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
