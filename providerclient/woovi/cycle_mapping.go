package woovi

import (
	"cmp"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cobrStatuses maps a cobr's status ([Woovi-SM], the webhook examples of
// [Woovi-Hooks]) to PixGate's. FAILED_TRY is a cycle still open, its last
// try failed and a retry to come: Woovi draws it after CREATED only,
// leading to ACTIVE when a retry is accepted, so it is CREATED. REJECTED
// is decided by its code (cycleStatus).
var cobrStatuses = map[string]recurrence.CycleStatus{
	wooviapi.CobrCreated:   recurrence.CycleCreated,
	wooviapi.CobrActive:    recurrence.CycleActive,
	wooviapi.CobrConcluded: recurrence.CyclePaid,
	wooviapi.CobrCompleted: recurrence.CyclePaid,
	wooviapi.CobrFailedTry: recurrence.CycleCreated,
	wooviapi.CobrRejected:  recurrence.CycleRejected,
	wooviapi.CobrCanceled:  recurrence.CycleCancelled,
	wooviapi.CobrExpired:   recurrence.CycleExpired,
}

// tryStatuses maps a try's status ([Woovi-SM], "CobRTry").
var tryStatuses = map[string]recurrence.AttemptStatus{
	wooviapi.TryRequested: recurrence.AttemptRequested,
	wooviapi.TryScheduled: recurrence.AttemptScheduled,
	wooviapi.TryPaid:      recurrence.AttemptPaid,
	wooviapi.TryRejected:  recurrence.AttemptRejected,
}

// attemptKinds are the BCB's kinds a try's finalityPurpose names.
var attemptKinds = map[string]recurrence.AttemptKind{
	string(recurrence.AttemptFirst): recurrence.AttemptFirst, string(recurrence.AttemptRetry): recurrence.AttemptRetry,
	string(recurrence.AttemptResend): recurrence.AttemptResend,
}

// cycleStatus is PixGate's status of a cobr of status st whose rejection
// code is code. Woovi's REJECTED comes once no try is left [Woovi-SM]:
// PixGate's REJECTED when a code that ends the cycle did it, else EXPIRED
// (the retries spent or not permitted, or no code given).
func cycleStatus(st, code string) (recurrence.CycleStatus, bool) {
	s, ok := cobrStatuses[st]
	if s == recurrence.CycleRejected && (code == "" || !recurrence.RejectionCode(code).EndsCycle()) {
		s = recurrence.CycleExpired
	}
	return s, ok
}

// neutralCycle translates an installment and its cobr into PixGate's
// cycle. One without a cobr holds no charge: Woovi's answer proves it
// absent, unless Woovi cancelled the installment (CANCELLED).
func neutralCycle(op string, inst wooviapi.Installment) (*providerclient.Cycle, error) {
	day, _ := wooviDay(inst.DateGenerateCharge)
	cy := &providerclient.Cycle{ProviderID: inst.GlobalID, DueDate: day, Amount: money.Money(inst.Value)}
	cobr := inst.Cobr
	if cobr == nil {
		if inst.Status == wooviapi.InstallmentCanceled {
			cy.Status = recurrence.CycleCancelled
			return cy, nil
		}
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrNotFound, StatusCode: http.StatusOK, Absent: true,
			Message: "installment " + inst.GlobalID + " has no cobr"}
	}
	attempts, err := neutralAttempts(op, cobr)
	if err != nil {
		return nil, err
	}
	code := rejectionCode(cobr)
	st, ok := cycleStatus(cobr.Status, code)
	if !ok {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "unknown cobr.status " + cobr.Status}
	}
	cy.Status, cy.Attempts, cy.Amount = st, attempts, money.Money(cmp.Or(cobr.Value, inst.Value))
	if st == recurrence.CycleRejected || st == recurrence.CycleExpired {
		cy.RejectionCode = code
	}
	if st == recurrence.CyclePaid {
		cy.EndToEndID, cy.PaidAt = cobr.EndToEndID, paidAt(cobr)
	}
	return cy, nil
}

// rejectionCode is why a cobr was rejected: its rejectCode, else its last
// rejected try's.
func rejectionCode(cobr *wooviapi.Cobr) string {
	if cobr.RejectCode != "" {
		return cobr.RejectCode
	}
	var code string
	for _, t := range cobr.Tries {
		if t.TryStatus == wooviapi.TryRejected && t.RejectCode != "" {
			code = t.RejectCode
		}
	}
	return code
}

// neutralAttempts are a cobr's tries as PixGate's attempts, in Woovi's
// order. A try without a known finalityPurpose is the due date's (AGND)
// when first, a retry (NTAG) after; the paid one carries the cobr's
// end-to-end id.
func neutralAttempts(op string, cobr *wooviapi.Cobr) ([]providerclient.Attempt, error) {
	out := make([]providerclient.Attempt, 0, len(cobr.Tries))
	for i, t := range cobr.Tries {
		st, ok := tryStatuses[t.TryStatus]
		if !ok {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
				Message: "unknown cobr.tries[].tryStatus " + t.TryStatus}
		}
		kind, known := attemptKinds[t.FinalityPurpose]
		if !known {
			kind = recurrence.AttemptFirst
			if i > 0 {
				kind = recurrence.AttemptRetry
			}
		}
		day, _ := wooviDay(t.RequestedExecutionDate)
		a := providerclient.Attempt{Kind: kind, SettleOn: day, Status: st, RejectionCode: t.RejectCode}
		if st == recurrence.AttemptPaid {
			a.EndToEndID = cobr.EndToEndID
		}
		out = append(out, a)
	}
	return out, nil
}

// paidAt is when a paid cobr was paid: its paymentDate, else when its
// paid try last changed.
func paidAt(cobr *wooviapi.Cobr) time.Time {
	if t, err := time.Parse(time.RFC3339Nano, cobr.PaymentDate); err == nil {
		return t
	}
	for _, t := range cobr.Tries {
		if at, err := time.Parse(time.RFC3339Nano, t.UpdatedAt); err == nil && t.TryStatus == wooviapi.TryPaid {
			return at
		}
	}
	return time.Time{}
}

// wooviDay is the day of one of Woovi's full dates (dateGenerateCharge,
// requestedExecutionDate): its date as written, in UTC, as Woovi's
// examples write a day (2025-08-24T12:00:00.000Z) and PixGate sends one
// (<day>T00:00:00.000Z).
func wooviDay(s string) (due.Date, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return due.Date{}, false
	}
	return due.DateOf(t.UTC()), true
}
