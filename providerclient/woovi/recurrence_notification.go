package woovi

import (
	"encoding/json"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
)

// maxIDLen bounds the ids a notification names.
const maxIDLen = 128

// recurrenceEvents reads a PIX_AUTOMATIC_APPROVED or _REJECTED webhook,
// whose body is the subscription beside the event ([Woovi-Hooks]): an
// Event of the recurrence named by its globalID, with PixGate's id (the
// correlationID) when it carries one, and the status its consent claims
// in PixGate's terms (from the event when the body has no known one).
func recurrenceEvents(trimmed, body []byte) ([]providerclient.Event, error) {
	var w wooviapi.SubscriptionWebhook
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return nil, &providerclient.NotificationError{Problem: "is not a Woovi subscription webhook"}
	}
	switch {
	case w.GlobalID == "" || len(w.GlobalID) > maxIDLen:
		return nil, &providerclient.NotificationError{Field: "globalID", Problem: "is required, at most 128 characters"}
	case len(w.CorrelationID) > maxIDLen:
		return nil, &providerclient.NotificationError{Field: "correlationID", Problem: "must be at most 128 characters"}
	}
	claim := wooviapi.RecurringApproved
	if w.Event == wooviapi.EventPixAutomaticRejected {
		claim = wooviapi.RecurringRejected
	}
	if c := w.Consent(); c != nil {
		if _, known := consentStatuses[c.Status]; known {
			claim = c.Status
		}
	}
	return []providerclient.Event{{Kind: providerclient.KindRecurrence, ProviderID: w.GlobalID, ID: w.CorrelationID,
		Status: providerclient.Status(consentStatuses[claim].status), Payload: body}}, nil
}
