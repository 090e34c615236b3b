package woovi

import (
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Journey QR_WITH_PAYMENT is Woovi's PAYMENT_ON_APPROVAL (docs/provider.md,
// "Recurrences (woovi)"): the subscription starts today, its value is
// charged by the first installment when the payer reads the QR Code
// ([Woovi-Dyn]), and its emv is the composite BR Code of a charge (26, a
// cob's location, as Woovi's ordinary charges' brCode) and the recurrence
// (80) [Woovi-Create]. Woovi takes no id for that charge, and its answer
// names none: PixGate reads it as the charge Woovi makes for the
// subscription under the subscription's correlationID (PixGate's id of the
// recurrence), as the installments Woovi makes carry it [Woovi-Hooks], so
// the first payment is read and notified as any charge under that
// correlationID (PixGate's reading: Woovi is silent).

// checkStart refuses a start Woovi does not take for the journey: today
// for PAYMENT_ON_APPROVAL ("a data deve ser o dia atual"), at least
// minStartDays away for ONLY_RECURRENCY [Woovi-Create]. Within a minute of
// midnight either day may be Woovi's today.
func checkStart(req providerclient.RecurrenceRequest, now time.Time) error {
	start := req.Calendar.Start
	if req.Journey == recurrence.JourneyQRWithPayment {
		if start != due.Today(now.Add(-midnightMargin)) && start != due.Today(now.Add(midnightMargin)) {
			return refuseRecurrence("calendar.start", fmt.Sprintf("Woovi starts a recurrence with a first payment today (%s)", due.Today(now)))
		}
		return nil
	}
	if earliest := due.Today(now.Add(midnightMargin)).AddDays(minStartDays); start.Before(earliest) {
		return refuseRecurrence("calendar.start", fmt.Sprintf("Woovi starts a recurrence of the QR journey %d days from today or later (%s)", minStartDays, earliest))
	}
	return nil
}

// firstPaymentTerms puts the first payment in the body: Woovi charges the
// subscription's value on the first installment ([Woovi-Dyn]), so a
// fixed recurrence's first payment must be its amount, and a variable
// one's, sent as the value, may not be below its floor. Only journey 3
// has a first payment, and it needs one.
func firstPaymentTerms(req providerclient.RecurrenceRequest, in *wooviapi.SubscriptionRequest) error {
	first, a := req.FirstPayment, req.Amount
	switch {
	case req.Journey != recurrence.JourneyQRWithPayment && first != 0:
		return refuseRecurrence("first_payment", "only the "+string(recurrence.JourneyQRWithPayment)+" journey has one")
	case req.Journey != recurrence.JourneyQRWithPayment:
		return nil
	case first <= 0:
		return refuseRecurrence("first_payment", "the "+string(recurrence.JourneyQRWithPayment)+" journey needs its amount")
	case a.Fixed > 0 && first != a.Fixed:
		return refuseRecurrence("first_payment", "Woovi charges the subscription's value first: it must be the fixed amount")
	case a.Fixed == 0 && first < a.Floor:
		return refuseRecurrence("first_payment", "Woovi charges the subscription's value first: it may not be below the floor (minimumValue)")
	}
	in.Value = int64(first)
	return nil
}

// firstPaymentID is the provider's id of a PAYMENT_ON_APPROVAL
// subscription's first charge: the correlationID it is created under,
// sent (Woovi's own example answers an empty correlationID) or read back;
// "" for another journey.
func firstPaymentID(sub wooviapi.Subscription, sent string) string {
	if c := sub.Consent(); c == nil || c.Journey != wooviapi.JourneyPaymentOnApproval {
		return ""
	}
	if sub.CorrelationID != "" {
		return sub.CorrelationID
	}
	return sent
}
