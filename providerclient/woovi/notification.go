package woovi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
)

// ParseNotification checks the signature (when a public key is set) and
// reads the claim of a webhook: a charge completed or expired, a payment
// (movement) confirmed, failed or removed, a refund sent confirmed or
// rejected, each named by its correlationID; a Pix Automático's consent
// approved or rejected, named by its globalID (recurrenceEvents); a
// cycle's cobr or one of its tries changed, named by its installment's
// globalID (cycleEvents). Other events (the operator may have subscribed
// more) claim nothing and are acknowledged. PixGate reads every claim
// back before believing it.
func (c *connector) ParseNotification(header http.Header, body []byte) ([]providerclient.Event, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, &providerclient.NotificationError{Problem: "must be a JSON object"}
	}
	if err := c.verify(header, body); err != nil {
		return nil, err
	}
	var w wooviapi.Webhook
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return nil, &providerclient.NotificationError{Problem: "is not a Woovi webhook"}
	}
	if w.Event == wooviapi.EventPixAutomaticApproved || w.Event == wooviapi.EventPixAutomaticRejected {
		return recurrenceEvents(trimmed, body)
	}
	if _, cycle := cobrEventStatuses[w.Event]; cycle {
		return cycleEvents(trimmed, body)
	}
	ev := providerclient.Event{Payload: body}
	switch {
	case (w.Event == wooviapi.EventChargeCompleted || w.Event == wooviapi.EventChargeExpired) && w.Charge != nil:
		ev.Kind, ev.ProviderID, ev.Status = providerclient.KindCharge, w.Charge.CorrelationID, providerclient.StatusPaid
		if w.Event == wooviapi.EventChargeExpired {
			ev.Status = providerclient.StatusExpired
		}
	case (w.Event == wooviapi.EventMovementOK || w.Event == wooviapi.EventMovementFailed || w.Event == wooviapi.EventMovementRemoved) && w.Payment != nil:
		ev.Kind, ev.ProviderID, ev.Status = providerclient.KindPayout, w.Payment.CorrelationID, providerclient.StatusFailed
		if w.Event == wooviapi.EventMovementOK {
			ev.Status = providerclient.StatusCompleted
		}
	case (w.Event == wooviapi.EventRefundSentOK || w.Event == wooviapi.EventRefundSentNo) && w.Refund != nil:
		ev.Kind, ev.ProviderID, ev.Status = providerclient.KindRefund, w.Refund.CorrelationID, providerclient.StatusFailed
		if w.Event == wooviapi.EventRefundSentOK {
			ev.Status = providerclient.StatusCompleted
		}
	default:
		return nil, nil
	}
	if ev.ProviderID == "" || len(ev.ProviderID) > 128 {
		return nil, &providerclient.NotificationError{Field: "correlationID", Problem: "is required"}
	}
	ev.ID = ev.ProviderID
	return []providerclient.Event{ev}, nil
}
