package woovi

import (
	"encoding/json"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cobrEventStatuses are the cycle's statuses the PIX_AUTOMATIC_COBR
// events claim when their body's cobr names none PixGate knows: created
// (and a try asked or rejected, the cycle still open), approved by the
// payer's bank, paid, rejected once no try is left ([Woovi-Hooks],
// [Woovi-Flow]).
var cobrEventStatuses = map[string]recurrence.CycleStatus{
	wooviapi.EventCobrCreated:      recurrence.CycleCreated,
	wooviapi.EventCobrApproved:     recurrence.CycleActive,
	wooviapi.EventCobrCompleted:    recurrence.CyclePaid,
	wooviapi.EventCobrRejected:     recurrence.CycleRejected,
	wooviapi.EventCobrTryRequested: recurrence.CycleCreated,
	wooviapi.EventCobrTryRejected:  recurrence.CycleCreated,
}

// cycleEvents reads a PIX_AUTOMATIC_COBR webhook, whose body is the
// installment beside the event ([Woovi-Hooks]): an Event of the cycle
// named by the installment's globalID, the id Cycle.ProviderID holds. Its
// correlationID is the subscription's, not the cycle's: the Event carries
// no PixGate id. The status is its cobr's in PixGate's terms, or the
// event's when the cobr names none known.
func cycleEvents(trimmed, body []byte) ([]providerclient.Event, error) {
	var w wooviapi.InstallmentWebhook
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return nil, &providerclient.NotificationError{Problem: "is not a Woovi installment webhook"}
	}
	if w.GlobalID == "" || len(w.GlobalID) > maxIDLen {
		return nil, &providerclient.NotificationError{Field: "globalID", Problem: "is required, at most 128 characters"}
	}
	st := cobrEventStatuses[w.Event]
	if c := w.Cobr; c != nil {
		if s, ok := cycleStatus(c.Status, rejectionCode(c)); ok {
			st = s
		}
	}
	return []providerclient.Event{{Kind: providerclient.KindRecurrenceCycle, ProviderID: w.GlobalID,
		Status: providerclient.Status(st), Payload: body}}, nil
}
