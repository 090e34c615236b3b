package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The payer's side of a recurrence, as the payer's bank acts on it, and
// the integrator's cancel. Each is one of the core's transitions: an event
// that finds the recurrence already where it leads changes nothing and is
// no error (ErrRepeated), one its status does not take is ErrConflict.

// cancelCodes are the BCB's codes of a cancelled recurrence
// (RecEncerramento's cancelamento.codigo, API Pix 2.9.0); the schema gives
// no meanings.
var cancelCodes = []string{"ACCL", "CPCL", "DCSD", "ERSL", "FRUD", "PCFD", "SLCR", "SLDB"}

// The integrator's cancel, as the BCB's own example of a recurrence
// cancelled by its receiver writes it (API Pix 2.9.0, example
// recResponse5: solicitante USUARIO_RECEBEDOR, codigo SLCR).
const (
	integratorCancelCode   = "SLCR"
	integratorCancelReason = "Cancelamento solicitado pelo usuário recebedor"
)

// ApproveRecurrence is the payer consenting to a CREATED recurrence, with
// the maximum they set for a variable one (0: none). A maximum below the
// recurrence's floor is ErrConflict, as the payer's bank refuses it; a
// maximum for a fixed recurrence is refused.
func (s *Sandbox) ApproveRecurrence(id string, payerMax money.Money) (contract.Recurrence, error) {
	return s.moveRecurrence(id, recurrence.RecurrenceApprove, func(d *RecurrenceData) error {
		var fe *recurrence.FieldError
		switch err := d.Amount.CheckPayerMaximum(payerMax); {
		case errors.Is(err, recurrence.ErrBelowFloor):
			return fmt.Errorf("%w: payerMax %s is below the recurrence's minimumAmount %s", ErrConflict, payerMax, d.Amount.Floor)
		case errors.As(err, &fe):
			return errors.New("payerMax: " + fe.Message)
		case err != nil:
			return err
		}
		d.PayerMax = payerMax
		return nil
	})
}

// RejectRecurrence is the payer refusing a CREATED recurrence, with the
// BCB's code (AP13 or AP14).
func (s *Sandbox) RejectRecurrence(id, code string) (contract.Recurrence, error) {
	code = upper(code)
	if !slices.Contains(recurrence.RecurrenceRejectionCodes, code) {
		return contract.Recurrence{}, fmt.Errorf("code must be one of %v", recurrence.RecurrenceRejectionCodes)
	}
	return s.moveRecurrence(id, recurrence.RecurrenceReject, func(d *RecurrenceData) error {
		d.EndCode, d.EndReason = code, "rejected by the payer (sandbox)"
		return nil
	})
}

// ExpireRecurrence lets a CREATED recurrence's consent lapse now, as when
// its deadline passes unanswered.
func (s *Sandbox) ExpireRecurrence(id string) (contract.Recurrence, error) {
	return s.moveRecurrence(id, recurrence.RecurrenceExpire, nil)
}

// CancelRecurrence is the payer's side cancelling a CREATED or APPROVED
// recurrence: by the payer (recurrence.PartyPayer) or their bank
// (PartyPayerBank), with one of the BCB's cancellation codes. The
// integrator cancels through contract.PathRecurrenceCancel.
func (s *Sandbox) CancelRecurrence(id string, by recurrence.Party, code string) (contract.Recurrence, error) {
	code = upper(code)
	switch {
	case by != recurrence.PartyPayer && by != recurrence.PartyPayerBank:
		return contract.Recurrence{}, fmt.Errorf("by must be %s or %s", recurrence.PartyPayer, recurrence.PartyPayerBank)
	case !slices.Contains(cancelCodes, code):
		return contract.Recurrence{}, fmt.Errorf("code must be one of %v", cancelCodes)
	}
	return s.cancelRecurrence(id, by, code, "cancelled by "+string(by)+" (sandbox)")
}

// cancelRecurrence cancels id on behalf of by.
func (s *Sandbox) cancelRecurrence(id string, by recurrence.Party, code, reason string) (contract.Recurrence, error) {
	return s.moveRecurrence(id, recurrence.RecurrenceCancel, func(d *RecurrenceData) error {
		d.CancelledBy, d.EndCode, d.EndReason = by, code, reason
		return nil
	})
}

// moveRecurrence applies e to recurrence id now, guarded by the core's
// transitions: edit, when given, checks and changes a copy of the
// recurrence's data (an error leaves everything as it was), and the change
// is committed and notified. A repeated event answers the recurrence as
// it is. A cancelled recurrence cancels its live cycles.
func (s *Sandbox) moveRecurrence(id string, e recurrence.RecurrenceEvent, edit func(*RecurrenceData) error) (contract.Recurrence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeRecurrence {
		return contract.Recurrence{}, ErrNotFound
	}
	now := time.Now()
	to, err := recurrence.RecurrenceStatus(r.statusAt(now)).Transition(e)
	switch {
	case errors.Is(err, recurrence.ErrRepeated):
		return recurrenceView(r, now), nil
	case err != nil:
		return recurrenceView(r, now), fmt.Errorf("%w: %v", ErrConflict, err)
	}
	d := *r.rec
	if edit != nil {
		if err := edit(&d); err != nil {
			return recurrenceView(r, now), err
		}
	}
	if to.Final() {
		d.EndedAt = now
	}
	if to == recurrence.RecurrenceApproved {
		// The payer's approval pays the first payment first: an approval
		// whose payment the store refused approves nothing.
		if err := s.payFirstPaymentLocked(d.FirstPayment, now); err != nil {
			return recurrenceView(r, now), err
		}
	}
	err = s.commit(r, func() {
		r.status, r.rec = string(to), &d
		if to == recurrence.RecurrenceApproved {
			r.approved = now
		}
	})
	if err != nil {
		return contract.Recurrence{}, err
	}
	s.notifyLocked(r, now)
	if to == recurrence.RecurrenceCancelled {
		// Its live cycles end with it, cancelled by the same side; one the
		// store refused stays live, and the recurrence's answer says so.
		if err := s.cancelCyclesOf(r.id, d.CancelledBy, now); err != nil {
			return recurrenceView(r, now), err
		}
	}
	return recurrenceView(r, now), nil
}

// handleCancelRecurrence is POST /v2/pix/recurrence/cancel: the integrator
// cancels a recurrence. Cancelling a cancelled one is no error; one that
// ended otherwise is 409.
func (s *Sandbox) handleCancelRecurrence(w http.ResponseWriter, r *http.Request) {
	var req contract.RecurrenceCancel
	if !decodeJSON(w, r, &req) {
		return
	}
	if req.TransactionID = strings.TrimSpace(req.TransactionID); req.TransactionID == "" {
		var v validation
		v.add("transactionId", "is required")
		v.write(w)
		return
	}
	rec, err := s.cancelRecurrence(req.TransactionID, recurrence.PartyIntegrator, integratorCancelCode, integratorCancelReason)
	if err != nil {
		writeControl(w, Transaction{}, err)
		return
	}
	writeJSON(w, http.StatusOK, contract.RecurrenceAnswer{TransactionID: rec.TransactionID, ExternalID: rec.ExternalID,
		Status: rec.Status, QRCode: rec.QRCode})
}

func (s *Sandbox) handleApproveRecurrence(w http.ResponseWriter, r *http.Request) {
	var body struct {
		PayerMax json.RawMessage `json:"payerMax"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	var payerMax money.Money
	if present(body.PayerMax) {
		var v validation
		if payerMax = v.amount("payerMax", body.PayerMax); v.failed() {
			v.write(w)
			return
		}
	}
	rec, err := s.ApproveRecurrence(r.PathValue("id"), payerMax)
	writeRecurrenceControl(w, rec, err)
}

func (s *Sandbox) handleRejectRecurrence(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Code string `json:"code"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	rec, err := s.RejectRecurrence(r.PathValue("id"), body.Code)
	writeRecurrenceControl(w, rec, err)
}

func (s *Sandbox) handleExpireRecurrence(w http.ResponseWriter, r *http.Request) {
	rec, err := s.ExpireRecurrence(r.PathValue("id"))
	writeRecurrenceControl(w, rec, err)
}

func (s *Sandbox) handlePayerCancelRecurrence(w http.ResponseWriter, r *http.Request) {
	var body struct {
		By   string `json:"by"`
		Code string `json:"code"`
	}
	if !decodeJSON(w, r, &body) {
		return
	}
	rec, err := s.CancelRecurrence(r.PathValue("id"), recurrence.Party(upper(body.By)), body.Code)
	writeRecurrenceControl(w, rec, err)
}

func (s *Sandbox) handleInspectRecurrence(w http.ResponseWriter, r *http.Request) {
	rec, err := s.Recurrence(r.PathValue("id"))
	writeRecurrenceControl(w, rec, err)
}

// writeRecurrenceControl renders a recurrence control's outcome as
// writeControl renders a transaction's: the recurrence, or 404, 409, 422
// or 503.
func writeRecurrenceControl(w http.ResponseWriter, rec contract.Recurrence, err error) {
	if err != nil {
		writeControl(w, Transaction{}, err)
		return
	}
	writeJSON(w, http.StatusOK, rec)
}
