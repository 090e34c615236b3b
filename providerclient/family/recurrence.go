package family

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Pix Automático is no part of the family's contract: the connector serves
// it over PixGate's extension (contract.PathRecurrence, read by
// consult-transaction, notified as a RECURRENCE transaction), only when
// the provider is configured as serving the extensions; otherwise its
// calls answer unsupported, and Capabilities says so.

// offeredJourneys are the journeys the extension takes: QR_WITH_PAYMENT's
// first payment is an ordinary charge, read as any.
var offeredJourneys = []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyPush, recurrence.JourneyQRWithPayment}

// journeys is Capabilities.Journeys: the offered ones with the extensions,
// none without.
func (f *connector) journeys() []recurrence.Journey {
	if !f.ext {
		return nil
	}
	return slices.Clone(offeredJourneys)
}

// CreateRecurrence registers a recurrence under PixGate's id
// (external_id), which the extension deduplicates.
func (f *connector) CreateRecurrence(ctx context.Context, req providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	op := providerclient.OpCreateRecurrence
	if !f.ext {
		return nil, unsupported(op)
	}
	if !slices.Contains(offeredJourneys, req.Journey) {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnsupported,
			Message: "the journey " + string(req.Journey) + " is not offered"}
	}
	withFirst := req.Journey == recurrence.JourneyQRWithPayment
	if withFirst && (req.FirstPayment <= 0 || req.FirstPaymentID == "") {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
			Message: "the journey " + string(req.Journey) + " needs its first payment's amount and id"}
	}
	var out contract.RecurrenceAnswer
	if err := f.base.call(ctx, op, contract.PathRecurrence, recurrenceRequest(req), &out); err != nil {
		return nil, err
	}
	if out.TransactionID == "" || (req.Journey.HasQR() && out.QRCode == "") ||
		(withFirst && (out.FirstPayment == nil || out.FirstPayment.TransactionID == "")) {
		// Made or not, PixGate cannot tell which charge the payer pays.
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "answer without transactionId, qrcode or firstPayment.transactionId"}
	}
	st, err := recurrenceStatus(op, out.Status)
	if err != nil {
		return nil, err
	}
	return &providerclient.Recurrence{ProviderID: out.TransactionID, ExternalID: out.ExternalID, Status: st, QRCode: out.QRCode,
		FirstPaymentID: firstPaymentID(out.FirstPayment)}, nil
}

// firstPaymentID is the first payment's transactionId, when there is one.
func firstPaymentID(fp *contract.FirstPayment) string {
	if fp == nil {
		return ""
	}
	return fp.TransactionID
}

// ReadRecurrence reads a recurrence by its transactionId (the family reads
// nothing by PixGate's id).
func (f *connector) ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	op := providerclient.OpReadRecurrence
	if err := f.recurrenceRef(op, ref); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := f.base.call(ctx, op, "/v2/consult-transaction", contract.ConsultRequest{PixID: ref.ProviderID}, &raw); err != nil {
		return nil, err
	}
	rec, err := contract.DecodeRecurrence(raw)
	if err != nil {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK, Err: err}
	}
	if rec.TransactionType != contract.TypeRecurrence {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrNotFound,
			Message: "transaction " + ref.ProviderID + " is a " + rec.TransactionType + ", not a recurrence"}
	}
	return neutralRecurrence(op, rec)
}

// CancelRecurrence cancels a recurrence on the integrator's behalf; the
// extension answers a cancelled one as it is.
func (f *connector) CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error {
	op := providerclient.OpCancelRecurrence
	if err := f.recurrenceRef(op, ref); err != nil {
		return err
	}
	var out contract.RecurrenceAnswer
	return f.base.call(ctx, op, contract.PathRecurrenceCancel, contract.RecurrenceCancel{TransactionID: ref.ProviderID}, &out)
}

// recurrenceRef refuses a call the connector cannot make: without the
// extensions, or without the recurrence's transactionId (a refusal, not a
// not-found: nothing was asked).
func (f *connector) recurrenceRef(op string, ref providerclient.RecurrenceRef) error {
	switch {
	case !f.ext:
		return unsupported(op)
	case ref.ProviderID == "":
		return &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
			Message: "the family reads a recurrence only by its transactionId, which is not known yet"}
	}
	return nil
}

// recurrenceRequest is req in the extension's terms.
func recurrenceRequest(req providerclient.RecurrenceRequest) contract.RecurrenceRequest {
	cal := req.Calendar
	terms := contract.RecurrenceTerms{
		Journey: string(req.Journey), Periodicity: string(cal.Periodicity), Count: cal.Count,
		Amount: req.Amount.Fixed, MinimumAmount: req.Amount.Floor, RetryPolicy: string(req.RetryPolicy),
		Payer:    contract.RecurrencePayer{Name: req.Payer.Name, Document: req.Payer.Document, Email: req.Payer.Email},
		Contract: req.Contract, Description: req.Description,
	}
	if !cal.Start.IsZero() {
		terms.Start = cal.Start.String()
	}
	if !cal.End.IsZero() {
		terms.End = cal.End.String()
	}
	if a := req.PayerAccount; a != nil {
		terms.Payer.Bank = &contract.PayerBank{ISPB: a.ISPB, Branch: a.Branch, Account: a.Number}
	}
	out := contract.RecurrenceRequest{ExternalID: req.ID, RecurrenceTerms: terms,
		ConsentExpiresAt: contract.FormatDate(req.ConsentExpiresAt), PostbackURL: req.NotifyURL}
	if req.Journey == recurrence.JourneyQRWithPayment {
		out.FirstPayment = &contract.FirstPaymentRequest{Amount: req.FirstPayment, ExternalID: req.FirstPaymentID}
	}
	return out
}

// neutralRecurrence translates a RECURRENCE into PixGate's terms.
func neutralRecurrence(op string, rec contract.Recurrence) (*providerclient.Recurrence, error) {
	st, err := recurrenceStatus(op, rec.Status)
	if err != nil {
		return nil, err
	}
	return &providerclient.Recurrence{
		ProviderID: rec.TransactionID, ExternalID: rec.ExternalID, Status: st, QRCode: rec.QRCode,
		PayerMax: rec.PayerMax, ApprovedAt: contract.ParseDate(rec.ApprovedAt),
		CancelledBy: recurrence.Party(rec.CancelledBy), EndCode: rec.EndCode, EndReason: rec.EndReason,
		FirstPaymentID: firstPaymentID(rec.FirstPayment),
	}, nil
}

// recurrenceStatus is the extension's status, which is PixGate's; one
// PixGate does not know is an answer it cannot use.
func recurrenceStatus(op, s string) (recurrence.RecurrenceStatus, error) {
	st := recurrence.RecurrenceStatus(strings.ToUpper(strings.TrimSpace(s)))
	if !st.Valid() {
		return "", &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "unknown recurrence status " + s}
	}
	return st, nil
}
