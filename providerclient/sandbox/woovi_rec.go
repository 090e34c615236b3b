package sandbox

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The woovi face's Pix Automático: subscriptions of type PIX_RECURRING,
// created (woovi_rec_create.go), read and cancelled through the core's
// recurrences, so that the payer's side answers them through the same
// controls as any face's. Each subscription's consent (pixRecurring) is
// the core's recurrence in Woovi's names; its changes the payer makes are
// notified by Woovi's PIX_AUTOMATIC_APPROVED and PIX_AUTOMATIC_REJECTED,
// the only consent events Woovi documents: a cancel by the receiver and an
// expiry are not notified (a read says them).

// newGlobalID is a subscription's globalID as Woovi writes one: the
// base64 of "PaymentSubscription:" and a 24-hex-digit object id. Its
// alphabet never yields "+" or "/", so it goes in a path as it is.
func newGlobalID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString([]byte("PaymentSubscription:" + hex.EncodeToString(b)))
}

// subscription is the recurrence a subscription route names, by its
// globalID or its correlationID, or nil. Callers hold s.mu.
func (f wooviFace) subscription(id string) *record {
	if r := f.record(id, contract.TypeRecurrence); r != nil {
		return r
	}
	return f.s.lookupExternal(contract.TypeRecurrence, id)
}

func (f wooviFace) getSubscription(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.subscription(r.PathValue("id"))
	if rec == nil {
		f.writeError(w, http.StatusBadRequest, "subscription not found")
		return
	}
	writeJSON(w, http.StatusOK, wooviapi.SubscriptionAnswer{Subscription: subscriptionOf(rec, time.Now())})
}

// cancelSubscription is the receiver's cancel: CANCELED, as the core's
// cancel by the integrator. One cancelled already answers as it is; one
// that ended otherwise is refused (400, the document's only error).
func (f wooviFace) cancelSubscription(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	rec := f.subscription(r.PathValue("id"))
	var id string
	if rec != nil {
		id = rec.id
	}
	f.s.mu.Unlock()
	if rec == nil {
		f.writeError(w, http.StatusBadRequest, "subscription not found")
		return
	}
	_, err := f.s.cancelRecurrence(id, recurrence.PartyIntegrator, integratorCancelCode, integratorCancelReason)
	switch {
	case errors.Is(err, ErrNotFound):
		f.writeError(w, http.StatusBadRequest, "subscription not found")
	case errors.Is(err, ErrConflict):
		f.writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	default:
		f.s.mu.Lock()
		defer f.s.mu.Unlock()
		writeJSON(w, http.StatusOK, wooviapi.SubscriptionAnswer{Subscription: subscriptionOf(rec, time.Now())})
	}
}

// recurrenceNotification is the webhook of a recurrence's new state: its
// approval, or the payer ending it (a refusal, or a cancel by the payer or
// their bank: Woovi's REJECTED either way). Callers hold s.mu.
func (f wooviFace) recurrenceNotification(r *record, now time.Time) (string, []byte, []byte) {
	sub := subscriptionOf(r, now)
	var event string
	switch sub.PixRecurring.Status {
	case wooviapi.RecurringApproved:
		event = wooviapi.EventPixAutomaticApproved
	case wooviapi.RecurringRejected:
		event = wooviapi.EventPixAutomaticRejected
	default:
		return "", nil, nil
	}
	body, _ := json.Marshal(wooviapi.SubscriptionWebhook{Event: event, Subscription: sub})
	return r.postbackURL, body, nil
}

// subscriptionOf renders a recurrence as Woovi's subscription. Callers
// hold s.mu.
func subscriptionOf(r *record, now time.Time) wooviapi.Subscription {
	d := r.rec
	consent := consentStatus(r, now)
	status := wooviapi.SubscriptionActive
	if consent != wooviapi.RecurringCreated && consent != wooviapi.RecurringApproved {
		status = wooviapi.SubscriptionInactive
	}
	return wooviapi.Subscription{GlobalID: r.id, CorrelationID: r.externalID, Value: int64(cmp.Or(d.Amount.Fixed, d.Amount.Floor)),
		Name: r.description, Type: wooviapi.SubscriptionPixRecurring, Status: status,
		DayGenerateCharge: json.RawMessage(strconv.Itoa(d.Calendar.Start.Day)),
		Customer:          wooviPerson(contract.Party{Name: d.Payer.Name, TaxID: d.Payer.Document, Email: d.Payer.Email}),
		PixRecurring: &wooviapi.PixRecurring{RecurrencyID: recurrencyID(r), Emv: r.qrcode, Journey: wooviJourneyOf(d),
			Status: consent}}
}

// consentStatus is the core's recurrence status in Woovi's names: the
// payer's refusal and a cancel by the payer or their bank are REJECTED
// (Woovi's state machine: "Autorização removida pelo consumidor"), the
// receiver's cancel CANCELED.
func consentStatus(r *record, now time.Time) string {
	switch st := recurrence.RecurrenceStatus(r.statusAt(now)); st {
	case recurrence.RecurrenceCancelled:
		if by := r.rec.CancelledBy; by == recurrence.PartyPayer || by == recurrence.PartyPayerBank {
			return wooviapi.RecurringRejected
		}
		return wooviapi.RecurringCanceled
	case recurrence.RecurrenceApproved:
		return wooviapi.RecurringApproved
	case recurrence.RecurrenceRejected:
		return wooviapi.RecurringRejected
	case recurrence.RecurrenceExpired:
		return wooviapi.RecurringExpired
	}
	return wooviapi.RecurringCreated
}

// recurrencyID is the BCB's id of the recurrence (RecId): R, then R when
// it permits retries or N when not, the sandbox's ISPB, the day it was
// created and 11 letters or digits, here drawn from the record's id.
func recurrencyID(r *record) string {
	kind := "N"
	if r.rec.RetryPolicy == recurrence.RetryThreeInSeven {
		kind = "R"
	}
	sum := sha256.Sum256([]byte(r.id))
	return "R" + kind + sandboxISPB + strings.ReplaceAll(due.Today(r.created).String(), "-", "") + hex.EncodeToString(sum[:])[:11]
}
