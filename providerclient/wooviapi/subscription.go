package wooviapi

import "encoding/json"

// Pix Automático: Woovi's subscriptions of type PIX_RECURRING. A
// subscription is the recurrence; its pixRecurring object is the payer's
// consent (the BCB's rec), whose status moves on its own, apart from the
// subscription's. Sources: Woovi's OpenAPI document (SubscriptionPayload,
// Subscription, the subscription routes, WebhookEventEnum) and its Pix
// Automático pages (github.com/woovibr/woovi-developers,
// docs/pix-automatic/), see docs/provider.md, "Recurrences (woovi)".

// Subscription routes. A subscription is named by its globalID or by the
// correlationID it was created with.
const (
	PathSubscriptions      = "/api/v1/subscriptions"
	PathSubscriptionByID   = "/api/v1/subscriptions/{id}"
	PathSubscriptionCancel = "/api/v1/subscriptions/{id}/cancel"
)

// SubscriptionPixRecurring is the type of a Pix Automático subscription
// (SubscriptionPayload.type).
const SubscriptionPixRecurring = "PIX_RECURRING"

// Journeys (pixRecurringOptions.journey): ONLY_RECURRENCY is the BCB's
// journey 2 (a QR Code of the recurrence alone), PAYMENT_ON_APPROVAL its
// journey 3 (the first installment paid on approval).
const (
	JourneyOnlyRecurrency    = "ONLY_RECURRENCY"
	JourneyPaymentOnApproval = "PAYMENT_ON_APPROVAL"
)

// Retry policies (pixRecurringOptions.retryPolicy), in Woovi's spelling.
const (
	RetryNonPermitted = "NON_PERMITED"
	RetryThreeIn7Days = "THREE_RETRIES_7_DAYS"
)

// Frequencies Pix Automático takes (SubscriptionPayload.frequency; not
// BIMONTHLY, which the BCB does not allow).
const (
	FrequencyWeekly       = "WEEKLY"
	FrequencyMonthly      = "MONTHLY"
	FrequencyQuarterly    = "QUARTERLY"
	FrequencySemiannually = "SEMIANNUALLY"
	FrequencyAnnually     = "ANNUALLY"
)

// The consent's statuses (pixRecurring.status): CREATED until the payer
// answers, APPROVED once they consent, REJECTED when they refuse or later
// remove the authorisation at their bank, CANCELED when the receiver
// cancels the subscription, EXPIRED (the document's enum; no page says
// when).
const (
	RecurringCreated  = "CREATED"
	RecurringApproved = "APPROVED"
	RecurringRejected = "REJECTED"
	RecurringCanceled = "CANCELED"
	RecurringExpired  = "EXPIRED"
)

// The subscription's own statuses (Subscription.status): ACTIVE while it
// makes installments, INACTIVE once cancelled (the state-machine page;
// the document's enum lacks it).
const (
	SubscriptionActive   = "ACTIVE"
	SubscriptionInactive = "INACTIVE"
)

// Webhook events of the consent: approved, and refused or removed by the
// payer. Woovi documents no event for a cancellation by the receiver nor
// for an expiry.
const (
	EventPixAutomaticApproved = "PIX_AUTOMATIC_APPROVED"
	EventPixAutomaticRejected = "PIX_AUTOMATIC_REJECTED"
)

// SubscriptionRequest is the body of POST /api/v1/subscriptions
// (SubscriptionPayload) for a Pix Automático. DayGenerateCharge is the
// first charge's day as a full UTC date ("2026-02-22T00:00:00.000Z");
// Value is each installment's value in centavos (a variable one's
// default); Comment is the mandate's contract, under 30 characters.
type SubscriptionRequest struct {
	CorrelationID       string               `json:"correlationID"`
	Type                string               `json:"type"`
	Value               int64                `json:"value"`
	Name                string               `json:"name,omitempty"`
	Comment             string               `json:"comment,omitempty"`
	Customer            *Customer            `json:"customer"`
	Frequency           string               `json:"frequency"`
	DayGenerateCharge   string               `json:"dayGenerateCharge"`
	InstallmentCount    int                  `json:"installmentCount,omitempty"`
	PixRecurringOptions *PixRecurringOptions `json:"pixRecurringOptions"`
}

// PixRecurringOptions are the consent's terms (pixRecurringOptions):
// MinimumValue, in centavos, makes the value variable, the least an
// installment may ask.
type PixRecurringOptions struct {
	Journey      string `json:"journey"`
	RetryPolicy  string `json:"retryPolicy"`
	MinimumValue int64  `json:"minimumValue,omitempty"`
}

// Subscription is a subscription as Woovi answers it and as its
// PIX_AUTOMATIC webhooks carry it. The consent is pixRecurring in every
// example of Woovi's (the OpenAPI document's schema names it
// pixRecurringOptions): Consent reads either. DayGenerateCharge is the
// day of the month of the charges, a number in the document.
type Subscription struct {
	GlobalID            string          `json:"globalID"`
	CorrelationID       string          `json:"correlationID"`
	Value               int64           `json:"value"`
	Name                string          `json:"name,omitempty"`
	Type                string          `json:"type,omitempty"`
	Status              string          `json:"status,omitempty"`
	DayGenerateCharge   json.RawMessage `json:"dayGenerateCharge,omitempty"`
	Customer            *Person         `json:"customer,omitempty"`
	PixRecurring        *PixRecurring   `json:"pixRecurring,omitempty"`
	PixRecurringOptions *PixRecurring   `json:"pixRecurringOptions,omitempty"`
}

// Consent is the subscription's pixRecurring, or its pixRecurringOptions
// when only that is given; nil when neither is.
func (s Subscription) Consent() *PixRecurring {
	if s.PixRecurring != nil {
		return s.PixRecurring
	}
	return s.PixRecurringOptions
}

// PixRecurring is the consent: the BCB's id of the recurrence
// (recurrencyId), the BR Code the payer reads to consent (emv), the
// journey and the status.
type PixRecurring struct {
	RecurrencyID string `json:"recurrencyId,omitempty"`
	Emv          string `json:"emv,omitempty"`
	Journey      string `json:"journey,omitempty"`
	Status       string `json:"status"`
}

// SubscriptionAnswer is the answer of POST /api/v1/subscriptions and GET
// /api/v1/subscriptions/{id}.
type SubscriptionAnswer struct {
	Subscription Subscription `json:"subscription"`
}

// SubscriptionWebhook is a PIX_AUTOMATIC webhook's body: the event beside
// the subscription's own members.
type SubscriptionWebhook struct {
	Event string `json:"event"`
	Subscription
}
