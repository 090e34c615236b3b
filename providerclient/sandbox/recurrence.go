package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Pix Automático's recurrences, as the receiver's provider and the payer's
// bank together see them: the family face registers a recurrence (the
// payer's consent to be charged on a calendar; contract.PathRecurrence)
// and gives a QR journey its BR Code; the payer's side answers through the
// control endpoints (approve, reject, let expire, cancel) and the
// integrator cancels through contract.PathRecurrenceCancel. Every change
// is one of the core's transitions (recurrence.RecurrenceStatus), notified
// to the recurrence's postbackUrl. A recurrence moves no money: it is no
// part of the ledger, the statements or the balance. Its cycles come
// later.

// offeredJourneys are the journeys the sandbox takes: a QR Code of the
// recurrence alone, a request pushed to the payer's bank, and a QR Code
// that pays a first payment and asks the consent (recurrence_first.go).
var offeredJourneys = []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyPush, recurrence.JourneyQRWithPayment}

// RecurrenceData is what a recurrence holds besides a record's common
// fields (the description, the postbackUrl, the QR Code, its creation,
// approval and consent deadline): its terms and what the payer's side
// said. A Store keeps it as JSON.
type RecurrenceData struct {
	Journey     recurrence.Journey       `json:"journey"`
	Calendar    recurrence.Calendar      `json:"calendar"`
	Amount      recurrence.Amount        `json:"amount"`
	RetryPolicy recurrence.RetryPolicy   `json:"retryPolicy"`
	Payer       contract.RecurrencePayer `json:"payer"`
	Contract    string                   `json:"contract,omitempty"`
	// PayerMax is the maximum the payer set when consenting.
	PayerMax money.Money `json:"payerMax,omitempty"`
	// CancelledBy, EndCode and EndReason say who ended it and why.
	CancelledBy recurrence.Party `json:"cancelledBy,omitempty"`
	EndCode     string           `json:"endCode,omitempty"`
	EndReason   string           `json:"endReason,omitempty"`
	// EndedAt is when it was rejected, expired or cancelled.
	EndedAt time.Time `json:"endedAt,omitzero"`
	// Loc and Solicitation are what the efi face's contract adds: the
	// payload location a QR journey's BR Code points at, and the consent
	// request pushed to the payer's bank.
	Loc          *RecurrenceLoc          `json:"loc,omitempty"`
	Solicitation *RecurrenceSolicitation `json:"solicitation,omitempty"`
	// FirstPayment is the id of journey QR_WITH_PAYMENT's charge, paid when
	// the payer approves.
	FirstPayment string `json:"firstPayment,omitempty"`
}

// recurrenceSpec is a recurrence to create: its terms, the consent's
// deadline and where its changes are notified; id and location, when a
// face's contract sets them, its id and its BR Code's location;
// firstPayment, for journey QR_WITH_PAYMENT, the id of the PENDING charge
// (TypeReceivePix) the face created for it.
type recurrenceSpec struct {
	id, location                         string
	externalID, description, postbackURL string
	deadline                             time.Time
	data                                 RecurrenceData
	firstPayment                         string
}

// createRecurrence registers a CREATED recurrence, with a BR Code for a QR
// journey, or returns the one already created for sp.externalID (created
// false).
func (s *Sandbox) createRecurrence(sp recurrenceSpec, now time.Time) (rec *record, created bool, err error) {
	id := cmp.Or(sp.id, newTransactionID())
	location := cmp.Or(sp.location, s.location("rec/"+id))
	if (sp.firstPayment != "") != (sp.data.Journey == recurrence.JourneyQRWithPayment) {
		return nil, false, fmt.Errorf("journey %s with first payment %q: only %s has one, and needs it",
			sp.data.Journey, sp.firstPayment, recurrence.JourneyQRWithPayment)
	}
	var code string
	if sp.data.Journey.HasQR() && sp.firstPayment == "" {
		// A consent asks no amount: the payer's bank reads the terms at
		// the location.
		code, err = brcode.Encode(brcode.Payload{MerchantName: s.cfg.MerchantName, MerchantCity: s.cfg.MerchantCity,
			Location: location})
		if err != nil {
			return nil, false, fmt.Errorf("encode the BR Code: %w", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.lookupExternal(contract.TypeRecurrence, sp.externalID); old != nil {
		return old, false, nil
	}
	data := sp.data
	var undo func()
	if sp.firstPayment != "" {
		if code, undo, err = s.composeFirstPayment(sp.firstPayment, location, now); err != nil {
			return nil, false, err
		}
		data.FirstPayment = sp.firstPayment
	}
	rec = &record{kind: contract.TypeRecurrence, id: id, externalID: sp.externalID, amount: data.Amount.Fixed,
		status: string(recurrence.RecurrenceCreated), description: sp.description, postbackURL: sp.postbackURL,
		created: now, expires: sp.deadline, qrcode: code, rec: &data}
	if err := s.commit(rec, func() { s.insert(rec) }); err != nil {
		if undo != nil {
			undo()
		}
		return nil, false, err
	}
	return rec, true, nil
}

// existingRecurrence is the recurrence already created for externalID,
// as the create's answer gives it.
func (s *Sandbox) existingRecurrence(externalID string) (contract.RecurrenceAnswer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.lookupExternal(contract.TypeRecurrence, externalID)
	if r == nil {
		return contract.RecurrenceAnswer{}, false
	}
	return recurrenceAnswer(r, time.Now()), true
}

// recurrenceAnswer is the create's (and the cancel's) answer for r at now.
// Callers hold s.mu.
func recurrenceAnswer(r *record, now time.Time) contract.RecurrenceAnswer {
	return contract.RecurrenceAnswer{TransactionID: r.id, ExternalID: r.externalID, Status: r.statusAt(now), QRCode: r.qrcode,
		FirstPayment: firstPaymentView(r)}
}

// Recurrence returns a recurrence as consult-transaction describes it.
func (s *Sandbox) Recurrence(id string) (contract.Recurrence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil || r.kind != contract.TypeRecurrence {
		return contract.Recurrence{}, ErrNotFound
	}
	return recurrenceView(r, time.Now()), nil
}

// recurrenceView renders a recurrence at now. Callers hold s.mu.
func recurrenceView(r *record, now time.Time) contract.Recurrence {
	d := r.rec
	terms := contract.RecurrenceTerms{
		Journey: string(d.Journey), Periodicity: string(d.Calendar.Periodicity), Start: d.Calendar.Start.String(),
		Count: d.Calendar.Count, Amount: d.Amount.Fixed, MinimumAmount: d.Amount.Floor,
		RetryPolicy: string(d.RetryPolicy), Payer: d.Payer, Contract: d.Contract, Description: r.description,
	}
	if !d.Calendar.End.IsZero() {
		terms.End = d.Calendar.End.String()
	}
	return contract.Recurrence{
		TransactionType: r.kind, TransactionID: r.id, ExternalID: r.externalID, Status: r.statusAt(now),
		RecurrenceTerms: terms, ConsentExpiresAt: contract.FormatDate(r.expires), QRCode: r.qrcode,
		DateCreated: contract.FormatDate(r.created), PayerMax: d.PayerMax, ApprovedAt: contract.FormatDate(r.approved),
		CancelledBy: string(d.CancelledBy), EndCode: d.EndCode, EndReason: d.EndReason, FirstPayment: firstPaymentView(r),
	}
}

// recurrenceNotification is the family face's notification of r's
// current state, and the CREATED one the out-of-order fault sends last.
// Callers hold s.mu.
func recurrenceNotification(r *record, now time.Time) (string, []byte, []byte) {
	v := recurrenceView(r, now)
	body, _ := json.Marshal(contract.Envelope[contract.Recurrence]{RequestBody: v})
	v.Status, v.PayerMax, v.ApprovedAt = string(recurrence.RecurrenceCreated), 0, ""
	v.CancelledBy, v.EndCode, v.EndReason = "", "", ""
	stale, _ := json.Marshal(contract.Envelope[contract.Recurrence]{RequestBody: v})
	return r.postbackURL, body, stale
}
