package sandbox

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The core's cycles in Woovi's names: an installment and its cobr
// ([Woovi-SM], [Woovi-Routes], [Woovi-Hooks]), and the PIX_AUTOMATIC_COBR
// webhook of each change.

// installmentStatuses are the installment's status of each cycle status
// (a cycle ended unpaid is EXPIRED, "passou do prazo de vencimento e não
// teve pagamento").
var installmentStatuses = map[recurrence.CycleStatus]string{
	recurrence.CycleCreated: wooviapi.InstallmentScheduled, recurrence.CycleActive: wooviapi.InstallmentActive,
	recurrence.CyclePaid: wooviapi.InstallmentCompleted, recurrence.CycleRejected: wooviapi.InstallmentExpired,
	recurrence.CycleExpired: wooviapi.InstallmentExpired, recurrence.CycleCancelled: wooviapi.InstallmentCanceled,
}

// tryStatuses are a try's status of each attempt status: Woovi's tries
// are REQUESTED, SCHEDULED, PAID or REJECTED, so an attempt that expired
// or was cancelled is REJECTED (without a code).
var tryStatuses = map[recurrence.AttemptStatus]string{
	recurrence.AttemptRequested: wooviapi.TryRequested, recurrence.AttemptScheduled: wooviapi.TryScheduled,
	recurrence.AttemptPaid: wooviapi.TryPaid,
}

// wooviDayAt is a day as Woovi's installments write one
// (2025-08-24T12:00:00.000Z).
func wooviDayAt(d due.Date) string { return d.String() + "T12:00:00.000Z" }

// installmentOf renders installment n of subscription sub, with its cobr
// once made (a first payment's, with its charge). Callers hold s.mu.
func (f wooviFace) installmentOf(sub *record, n int) wooviapi.Installment {
	id := installmentID(sub.id, n)
	day, _ := sub.rec.Calendar.Due(n)
	inst := wooviapi.Installment{GlobalID: id, PaymentSubscriptionGlobalID: sub.id, CorrelationID: sub.externalID,
		InstallmentNumber: n + 1, DateGenerateCharge: wooviDayAt(day), Status: wooviapi.InstallmentScheduled,
		Value: int64(cmp.Or(sub.rec.Amount.Fixed, sub.rec.Amount.Floor)), CreatedAt: wooviTime(sub.created)}
	if f.firstInstallment(&inst, sub, n, time.Now()) {
		return inst
	}
	c := f.s.records[id]
	if c == nil || c.kind != cycleKind {
		return inst
	}
	inst.Value, inst.Status, inst.Cobr = int64(c.amount), installmentStatuses[recurrence.CycleStatus(c.status)], cobrOf(c, sub)
	return inst
}

// cobrOf renders cycle c of subscription sub as its cobr. Callers hold
// s.mu.
func cobrOf(c, sub *record) *wooviapi.Cobr {
	d := c.cyc
	sum := sha256.Sum256([]byte(c.id))
	cobr := &wooviapi.Cobr{IdentifierID: strings.ToUpper(hex.EncodeToString(sum[:13]))[:26], RecurrencyID: recurrencyID(sub),
		InstallmentID: c.id, Status: cobrStatus(c), Value: int64(c.amount), Description: c.description,
		ChargeDate: wooviDayAt(d.DueDate), CreatedAt: wooviTime(c.created)}
	for _, a := range d.Attempts {
		cobr.Tries = append(cobr.Tries, wooviapi.CobrTry{TryStatus: cmp.Or(tryStatuses[a.Status], wooviapi.TryRejected),
			FinalityPurpose: string(a.Kind), RejectCode: a.RejectionCode, Value: int64(c.amount),
			RequestedExecutionDate: wooviDayAt(a.SettleOn), UpdatedAt: wooviTime(a.At)})
	}
	switch recurrence.CycleStatus(c.status) {
	case recurrence.CyclePaid:
		cobr.EndToEndID, cobr.PaymentDate = c.endToEndID, wooviTime(c.approved)
	case recurrence.CycleRejected, recurrence.CycleExpired:
		cobr.RejectCode = d.RejectionCode
		for _, a := range d.Attempts {
			if d.RejectionCode == "" && a.RejectionCode != "" {
				cobr.RejectCode = a.RejectionCode // the last rejected attempt's
			}
		}
	}
	return cobr
}

// cobrStatus is cycle c's cobr status: Woovi's REJECTED once no try is
// left (the core's REJECTED and EXPIRED), FAILED_TRY while a retry is to
// come or asked and not yet accepted, COMPLETED paid (the webhooks'
// spelling; the state page writes CONCLUDED).
func cobrStatus(c *record) string {
	switch recurrence.CycleStatus(c.status) {
	case recurrence.CyclePaid:
		return wooviapi.CobrCompleted
	case recurrence.CycleRejected, recurrence.CycleExpired:
		return wooviapi.CobrRejected
	case recurrence.CycleCancelled:
		return wooviapi.CobrCanceled
	}
	if i := c.cyc.open(); i < 0 || i > 0 && c.cyc.Attempts[i].Status == recurrence.AttemptRequested {
		return wooviapi.CobrFailedTry
	}
	if c.status == string(recurrence.CycleActive) {
		return wooviapi.CobrActive
	}
	return wooviapi.CobrCreated
}

// cobrEvent is the PIX_AUTOMATIC_COBR event of cycle c's change, "" for
// a cancel (Woovi documents none). A rejection the core answers at once
// with Woovi's retry is the try's rejection, the news.
func cobrEvent(c *record) string {
	switch recurrence.CycleStatus(c.status) {
	case recurrence.CyclePaid:
		return wooviapi.EventCobrCompleted
	case recurrence.CycleRejected, recurrence.CycleExpired:
		return wooviapi.EventCobrRejected
	case recurrence.CycleCancelled:
		return ""
	}
	d := c.cyc
	i := d.open()
	switch {
	case i < 0 || retriedAtOnce(d):
		return wooviapi.EventCobrTryRejected
	case d.Attempts[i].Status == recurrence.AttemptScheduled:
		return wooviapi.EventCobrApproved
	case i == 0:
		return wooviapi.EventCobrCreated
	}
	return wooviapi.EventCobrTryRequested
}

// retriedAtOnce reports whether d's open attempt is a retry the core
// asked at the instant the try before it was rejected (autoRetry).
func retriedAtOnce(d *CycleData) bool {
	i := d.open()
	return i > 0 && d.Attempts[i].Status == recurrence.AttemptRequested && d.Attempts[i-1].At.Equal(d.Attempts[i].At)
}

// followUp is the second webhook of a try rejected and retried at once:
// after its TRY_REJECTED, the retry's PIX_AUTOMATIC_COBR_TRY_REQUESTED,
// which Woovi sends "quando uma nova tentativa de cobrança é realizada"
// ([Woovi-Hooks]). Callers hold s.mu.
func (f wooviFace) followUp(r *record, _ time.Time) []byte {
	if r.kind != cycleKind || r.postbackURL == "" || recurrence.CycleStatus(r.status).Final() || !retriedAtOnce(r.cyc) {
		return nil
	}
	sub := f.s.records[r.cyc.Recurrence]
	if sub == nil || sub.rec == nil {
		return nil
	}
	body, _ := json.Marshal(wooviapi.InstallmentWebhook{Event: wooviapi.EventCobrTryRequested, Installment: f.installmentOf(sub, r.cyc.N)})
	return body
}

// cycleNotification is the webhook of cycle c's change: the installment
// beside the event. Callers hold s.mu.
func (f wooviFace) cycleNotification(c *record, _ time.Time) (string, []byte, []byte) {
	event, sub := cobrEvent(c), f.s.records[c.cyc.Recurrence]
	if event == "" || sub == nil || sub.rec == nil {
		return "", nil, nil
	}
	body, _ := json.Marshal(wooviapi.InstallmentWebhook{Event: event, Installment: f.installmentOf(sub, c.cyc.N)})
	return c.postbackURL, body, nil
}
