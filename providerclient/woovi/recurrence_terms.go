package woovi

import (
	"fmt"
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// offeredJourneys are the journeys the connector takes, by Woovi's name
// of each ([Woovi-Create]): PixGate's QR is ONLY_RECURRENCY (journey 2),
// its QR_WITH_PAYMENT PAYMENT_ON_APPROVAL (journey 3, recurrence_first.go).
// Woovi's API has no push journey and no due-date one.
var offeredJourneys = []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyQRWithPayment}

// wooviJourneys are Woovi's names of the offered journeys.
var wooviJourneys = map[recurrence.Journey]string{
	recurrence.JourneyQR: wooviapi.JourneyOnlyRecurrency, recurrence.JourneyQRWithPayment: wooviapi.JourneyPaymentOnApproval,
}

// journeys is Capabilities.Journeys.
func journeys() []recurrence.Journey { return slices.Clone(offeredJourneys) }

// Woovi's rules for the terms it takes ([Woovi-Create]): an
// ONLY_RECURRENCY subscription starts at least minStartDays from today,
// and its comment (the mandate's contract) has fewer than 30 characters.
const (
	minStartDays  = 3
	maxCommentLen = 29
)

// frequencies are Woovi's names of PixGate's periodicities.
var frequencies = map[recurrence.Periodicity]string{
	recurrence.Weekly: wooviapi.FrequencyWeekly, recurrence.Monthly: wooviapi.FrequencyMonthly,
	recurrence.Quarterly: wooviapi.FrequencyQuarterly, recurrence.Semiannual: wooviapi.FrequencySemiannually,
	recurrence.Annual: wooviapi.FrequencyAnnually,
}

// retryPolicies are Woovi's names of PixGate's retry policies ("" is
// NONE, the core's default).
var retryPolicies = map[recurrence.RetryPolicy]string{
	"": wooviapi.RetryNonPermitted, recurrence.RetryNone: wooviapi.RetryNonPermitted,
	recurrence.RetryThreeInSeven: wooviapi.RetryThreeIn7Days,
}

// subscriptionRequest is req as Woovi's body, asked at now; what Woovi
// cannot hold is refused before any call, naming the field.
func subscriptionRequest(req providerclient.RecurrenceRequest, now time.Time) (wooviapi.SubscriptionRequest, error) {
	cal, a := req.Calendar, req.Amount
	in := wooviapi.SubscriptionRequest{CorrelationID: req.ID, Type: wooviapi.SubscriptionPixRecurring, Value: int64(a.Fixed),
		Name: req.Description, Comment: req.Contract,
		Customer:            &wooviapi.Customer{Name: req.Payer.Name, TaxID: req.Payer.Document, Email: req.Payer.Email},
		Frequency:           frequencies[cal.Periodicity],
		PixRecurringOptions: &wooviapi.PixRecurringOptions{Journey: wooviJourneys[req.Journey], RetryPolicy: retryPolicies[req.RetryPolicy]}}
	switch {
	case !slices.Contains(offeredJourneys, req.Journey):
		return in, refuseRecurrence("journey", string(req.Journey)+" is not offered by Woovi's API")
	case req.Payer.Name == "" || req.Payer.Document == "":
		return in, refuseRecurrence("payer", "a name and a document are required")
	case in.Frequency == "":
		return in, refuseRecurrence("calendar.periodicity", fmt.Sprintf("%q is not one of PixGate's", cal.Periodicity))
	case a.Fixed == 0 && a.Floor <= 0:
		return in, refuseRecurrence("amount.floor", "Woovi takes a variable amount only with its minimum (minimumValue)")
	case utf8.RuneCountInString(req.Contract) > maxCommentLen:
		return in, refuseRecurrence("contract", fmt.Sprintf("Woovi takes at most %d characters", maxCommentLen))
	case in.PixRecurringOptions.RetryPolicy == "":
		return in, refuseRecurrence("retry_policy", fmt.Sprintf("%q is not one of PixGate's", req.RetryPolicy))
	}
	if err := checkStart(req, now); err != nil {
		return in, err
	}
	if a.Fixed == 0 {
		// Woovi's value is a variable subscription's default installment;
		// PixGate sets each cycle's amount itself, never below the floor.
		in.Value, in.PixRecurringOptions.MinimumValue = int64(a.Floor), int64(a.Floor)
	}
	if err := firstPaymentTerms(req, &in); err != nil {
		return in, err
	}
	in.DayGenerateCharge = cal.Start.String() + "T00:00:00.000Z"
	if n, ok := cal.Cycles(); ok {
		in.InstallmentCount = n
	}
	return in, nil
}

// refuseRecurrence refuses, before any call, terms Woovi cannot hold:
// unsupported (another provider may hold them), except a payer without a
// name or a document, which no provider would take.
func refuseRecurrence(field, why string) error {
	kind := providerclient.ErrUnsupported
	if field == "payer" {
		kind = providerclient.ErrRejected
	}
	return &providerclient.Error{Op: providerclient.OpCreateRecurrence, Kind: kind, Absent: true, Message: field + ": " + why}
}

// neutralRecurrence translates a subscription into PixGate's terms: its
// globalID is the provider's id, its correlationID PixGate's (and, for
// PAYMENT_ON_APPROVAL, its first charge's id), and its consent's status
// PixGate's by consentStatus. Woovi tells neither the
// payer's maximum, nor when they consented, nor a code of how it ended.
func neutralRecurrence(op string, sub wooviapi.Subscription) (*providerclient.Recurrence, error) {
	consent := sub.Consent()
	if consent == nil {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "subscription without pixRecurring"}
	}
	st, ok := consentStatuses[consent.Status]
	if !ok {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK,
			Message: "unknown pixRecurring.status " + consent.Status}
	}
	return &providerclient.Recurrence{ProviderID: sub.GlobalID, ExternalID: sub.CorrelationID, Status: st.status,
		QRCode: consent.Emv, FirstPaymentID: firstPaymentID(sub, ""), CancelledBy: st.by, EndReason: st.reason}, nil
}

// consentStatus is what one of Woovi's consent statuses says in PixGate's
// terms.
type consentStatus struct {
	status recurrence.RecurrenceStatus
	by     recurrence.Party
	reason string
}

// consentStatuses maps pixRecurring.status ([Woovi-SM]). CANCELED is the
// receiver's cancel, so the integrator's. REJECTED is the payer ending it
// at their bank, before or after approving: Woovi's state machine has it
// follow APPROVED ("Autorização removida pelo consumidor") and its
// webhook page calls it a refusal, and neither a read nor a webhook says
// which. PixGate reads it as the payer's cancel, which its states reach
// from CREATED as from APPROVED; read as a refusal, an authorisation the
// payer removed would stay APPROVED in PixGate, and be charged.
var consentStatuses = map[string]consentStatus{
	wooviapi.RecurringCreated:  {status: recurrence.RecurrenceCreated},
	wooviapi.RecurringApproved: {status: recurrence.RecurrenceApproved},
	wooviapi.RecurringExpired:  {status: recurrence.RecurrenceExpired},
	wooviapi.RecurringCanceled: {status: recurrence.RecurrenceCancelled, by: recurrence.PartyIntegrator,
		reason: "cancelled by the receiver (Woovi: CANCELED)"},
	wooviapi.RecurringRejected: {status: recurrence.RecurrenceCancelled, by: recurrence.PartyPayer,
		reason: "refused or removed by the payer at their bank (Woovi: REJECTED)"},
}
