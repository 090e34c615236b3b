package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// subscriptionBody reads dayGenerateCharge raw: Woovi takes a day of the
// month (a number) or a full date (a string).
type subscriptionBody struct {
	wooviapi.SubscriptionRequest
	DayGenerateCharge json.RawMessage `json:"dayGenerateCharge"`
}

// Woovi's rules for a Pix Automático ([Woovi-Create]): an ONLY_RECURRENCY
// subscription starts at least wooviRecMinStartDays from today; its
// comment has fewer than 30 characters.
const (
	wooviRecMinStartDays  = 3
	wooviRecMaxCommentLen = 29
)

// wooviPeriodicities are PixGate's periodicities of Woovi's frequencies
// (BIMONTHLY is not Pix Automático's).
var wooviPeriodicities = map[string]recurrence.Periodicity{
	wooviapi.FrequencyWeekly: recurrence.Weekly, wooviapi.FrequencyMonthly: recurrence.Monthly,
	wooviapi.FrequencyQuarterly: recurrence.Quarterly, wooviapi.FrequencySemiannually: recurrence.Semiannual,
	wooviapi.FrequencyAnnually: recurrence.Annual,
}

// wooviRecJourneys are PixGate's journeys of Woovi's ([Woovi-Create]).
var wooviRecJourneys = map[string]recurrence.Journey{
	wooviapi.JourneyOnlyRecurrency: recurrence.JourneyQR, wooviapi.JourneyPaymentOnApproval: recurrence.JourneyQRWithPayment,
}

// wooviRetryPolicies are PixGate's retry policies of Woovi's.
var wooviRetryPolicies = map[string]recurrence.RetryPolicy{
	wooviapi.RetryNonPermitted: recurrence.RetryNone, wooviapi.RetryThreeIn7Days: recurrence.RetryThreeInSeven,
}

// postSubscription is POST /api/v1/subscriptions: a Pix Automático of a
// QR journey, a CREATED recurrence of the core's with its BR Code (emv),
// for PAYMENT_ON_APPROVAL with its first charge made before it
// (woovi_rec_first.go). A correlationID used already is refused (400), as
// a charge's is, and makes nothing.
func (f wooviFace) postSubscription(w http.ResponseWriter, r *http.Request) {
	var req subscriptionBody
	if !f.decode(w, r, &req) {
		return
	}
	now := time.Now()
	sp, msg := wooviSubscription(req, now)
	if msg != "" {
		f.writeError(w, http.StatusBadRequest, msg)
		return
	}
	sp.id, sp.postbackURL = newGlobalID(), f.s.cfg.WebhookURL
	if status, msg := f.firstCharge(&sp, req.Value, now); msg != "" {
		f.writeError(w, status, msg)
		return
	}
	rec, created, err := f.s.createRecurrence(sp, now)
	switch {
	case errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound):
		f.writeError(w, http.StatusBadRequest, err.Error()) // its first charge, refused by the core
	case err != nil:
		f.writeError(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		f.writeError(w, http.StatusBadRequest, "a subscription with this correlationID already exists")
	default:
		f.s.mu.Lock()
		defer f.s.mu.Unlock()
		writeJSON(w, http.StatusOK, wooviapi.SubscriptionAnswer{Subscription: subscriptionOf(rec, time.Now())})
	}
}

// wooviSubscription checks a subscription on the day of now and returns
// the recurrence to create, or Woovi's complaint. The sandbox takes every
// customer as registered at Woovi (no address); it needs the payer's name
// and document, which the BCB's recurrence names.
func wooviSubscription(req subscriptionBody, now time.Time) (recurrenceSpec, string) {
	opts := req.PixRecurringOptions
	switch {
	case req.Type != wooviapi.SubscriptionPixRecurring:
		return recurrenceSpec{}, "type must be PIX_RECURRING (the sandbox simulates Pix Automático's subscriptions only)"
	case !validCorrelationID(req.CorrelationID):
		return recurrenceSpec{}, "correlationID is required"
	case req.Value <= 0:
		return recurrenceSpec{}, "value must be a positive number of cents"
	case opts == nil:
		return recurrenceSpec{}, "pixRecurringOptions is required for a PIX_RECURRING subscription"
	case wooviRecJourneys[opts.Journey] == "":
		return recurrenceSpec{}, "pixRecurringOptions.journey must be ONLY_RECURRENCY or PAYMENT_ON_APPROVAL"
	case opts.MinimumValue < 0 || opts.MinimumValue > req.Value:
		return recurrenceSpec{}, "pixRecurringOptions.minimumValue must be between 0 and value"
	case utf8.RuneCountInString(req.Comment) > wooviRecMaxCommentLen:
		return recurrenceSpec{}, "comment must have fewer than 30 characters"
	}
	d := RecurrenceData{Journey: wooviRecJourneys[opts.Journey], Contract: strings.TrimSpace(req.Comment)}
	var ok bool
	if d.RetryPolicy, ok = wooviRetryPolicies[opts.RetryPolicy]; !ok {
		return recurrenceSpec{}, "pixRecurringOptions.retryPolicy must be NON_PERMITED or THREE_RETRIES_7_DAYS"
	}
	d.Amount = recurrence.Amount{Fixed: money.Money(req.Value)}
	if opts.MinimumValue > 0 {
		d.Amount = recurrence.Amount{Floor: money.Money(opts.MinimumValue)}
	}
	var msg string
	if d.Payer, msg = wooviRecPayer(req.Customer); msg != "" {
		return recurrenceSpec{}, msg
	}
	if d.Calendar, msg = wooviCalendar(req, d.Journey, due.Today(now)); msg != "" {
		return recurrenceSpec{}, msg
	}
	deadline, err := recurrence.ConsentDeadline(now, time.Time{})
	if err != nil {
		return recurrenceSpec{}, err.Error()
	}
	return recurrenceSpec{externalID: req.CorrelationID, description: strings.TrimSpace(req.Name), deadline: deadline, data: d}, ""
}

// wooviRecPayer is the customer as the recurrence's payer.
func wooviRecPayer(c *wooviapi.Customer) (contract.RecurrencePayer, string) {
	if c == nil || strings.TrimSpace(c.Name) == "" || c.TaxID == "" {
		return contract.RecurrencePayer{}, "customer needs a name and a taxID for a PIX_RECURRING subscription"
	}
	doc, err := pix.NormalizeDocument(c.TaxID)
	if err != nil {
		return contract.RecurrencePayer{}, "customer.taxID " + err.Error()
	}
	return contract.RecurrencePayer{Name: strings.TrimSpace(c.Name), Document: doc, Email: strings.TrimSpace(c.Email)}, ""
}

// wooviCalendar reads the frequency (MONTHLY when absent), the start (a
// full date: the sandbox does not take a day of the month) and the
// installments, checked by the core's rules on today and Woovi's for the
// journey: PAYMENT_ON_APPROVAL starts today, ONLY_RECURRENCY at least
// wooviRecMinStartDays from it.
func wooviCalendar(req subscriptionBody, j recurrence.Journey, today due.Date) (recurrence.Calendar, string) {
	p, ok := wooviPeriodicities[req.Frequency]
	switch {
	case req.Frequency == "":
		p = recurrence.Monthly
	case !ok:
		return recurrence.Calendar{}, "frequency must be WEEKLY, MONTHLY, QUARTERLY, SEMIANNUALLY or ANNUALLY for a PIX_RECURRING subscription"
	}
	var at string
	if json.Unmarshal(req.DayGenerateCharge, &at) != nil {
		return recurrence.Calendar{}, "dayGenerateCharge must be a full date, 2026-02-22T00:00:00.000Z (the sandbox takes no day of the month)"
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return recurrence.Calendar{}, "dayGenerateCharge must be a full date, 2026-02-22T00:00:00.000Z"
	}
	cal := recurrence.Calendar{Periodicity: p, Start: due.DateOf(t.UTC()), Count: req.InstallmentCount}
	if j == recurrence.JourneyQRWithPayment && cal.Start != today {
		return recurrence.Calendar{}, fmt.Sprintf("dayGenerateCharge must be today (%s) for PAYMENT_ON_APPROVAL", today)
	}
	if earliest := today.AddDays(wooviRecMinStartDays); j == recurrence.JourneyQR && cal.Start.Before(earliest) {
		return recurrence.Calendar{}, fmt.Sprintf("dayGenerateCharge must be at least %d days from today (%s) for ONLY_RECURRENCY", wooviRecMinStartDays, earliest)
	}
	if err := cal.Validate(today); err != nil {
		return recurrence.Calendar{}, strings.NewReplacer("calendar.count", "installmentCount", "calendar.", "").Replace(err.Error())
	}
	return cal, ""
}
