package woovi

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Pix Automático is Woovi's subscription of type PIX_RECURRING
// (docs/provider.md, "Recurrences (woovi)"): created under PixGate's id as
// its correlationID, read and cancelled by its globalID (the provider's
// id), its consent (pixRecurring) notified by PIX_AUTOMATIC_APPROVED and
// PIX_AUTOMATIC_REJECTED. Woovi's API offers the QR journeys only; the
// connector takes PixGate's QR (ONLY_RECURRENCY) and QR_WITH_PAYMENT
// (PAYMENT_ON_APPROVAL, recurrence_first.go) and refuses the others
// itself, sending nothing.

// CreateRecurrence registers a subscription under PixGate's id. A refusal
// is read back by that correlationID: one for the same value and journey
// is this one, created by an earlier try whose answer was lost (Woovi's
// documents do not say how a repeated correlationID is answered), and so
// is its first charge, which Woovi makes with it.
func (c *connector) CreateRecurrence(ctx context.Context, req providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	op := providerclient.OpCreateRecurrence
	in, err := subscriptionRequest(req, time.Now())
	if err != nil {
		return nil, err
	}
	res, err := c.call(ctx, op, http.MethodPost, wooviapi.PathSubscriptions, in)
	if err != nil {
		return nil, err
	}
	var ans wooviapi.SubscriptionAnswer
	if err := decode(op, res, &ans); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
			return nil, err
		}
		refusal := err
		again, err := providerclient.AfterRefusal(ctx, refusal, func(ctx context.Context) (*wooviapi.Subscription, error) {
			return c.subscription(ctx, op, req.ID)
		})
		if err != nil {
			return nil, err
		}
		if c := again.Consent(); again.Value != in.Value || (c != nil && c.Journey != "" && c.Journey != in.PixRecurringOptions.Journey) {
			return nil, refusal
		}
		ans.Subscription = *again
	}
	rec, err := neutralRecurrence(op, ans.Subscription)
	if err != nil {
		return nil, err
	}
	if rec.ProviderID == "" || rec.QRCode == "" {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "answer without globalID or pixRecurring.emv"}
	}
	if req.Journey == recurrence.JourneyQRWithPayment {
		if rec.FirstPaymentID = firstPaymentID(ans.Subscription, in.CorrelationID); rec.FirstPaymentID == "" {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
				Message: "answer of journey " + ans.Subscription.Consent().Journey + ", not PAYMENT_ON_APPROVAL"}
		}
	}
	return rec, nil
}

// ReadRecurrence reads a subscription by its globalID, or by PixGate's id
// (its correlationID) before the globalID is known: Woovi reads either.
func (c *connector) ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	op := providerclient.OpReadRecurrence
	id, err := subscriptionID(op, ref)
	if err != nil {
		return nil, err
	}
	sub, err := c.subscription(ctx, op, id)
	if err != nil {
		return nil, err
	}
	return neutralRecurrence(op, *sub)
}

// CancelRecurrence cancels a subscription (PUT
// /api/v1/subscriptions/{id}/cancel). A refused cancel of one Woovi reads
// CANCELED is no error: Woovi's documents do not say how a second cancel
// is answered.
func (c *connector) CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error {
	op := providerclient.OpCancelRecurrence
	id, err := subscriptionID(op, ref)
	if err != nil {
		return err
	}
	res, err := c.call(ctx, op, http.MethodPut, wooviapi.PathSubscriptions+"/"+escape(id)+"/cancel", nil)
	if err != nil {
		return err
	}
	var ans map[string]any
	refusal := decode(op, res, &ans)
	if !errors.Is(refusal, providerclient.ErrRejected) || errors.Is(refusal, providerclient.ErrNotFound) {
		return refusal
	}
	sub, err := c.subscription(ctx, op, id)
	switch {
	case err != nil:
		return err // unknown, or not found: nothing to cancel
	case sub.Consent() != nil && sub.Consent().Status == wooviapi.RecurringCanceled:
		return nil
	}
	return refusal
}

// subscription reads a subscription by its globalID or correlationID.
func (c *connector) subscription(ctx context.Context, op, id string) (*wooviapi.Subscription, error) {
	var ans wooviapi.SubscriptionAnswer
	if err := c.getAs(ctx, op, wooviapi.PathSubscriptions+"/"+escape(id), &ans); err != nil {
		return nil, err
	}
	sub := ans.Subscription
	if sub.Type != "" && sub.Type != wooviapi.SubscriptionPixRecurring {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrNotFound,
			Message: "subscription " + id + " is of type " + sub.Type + ", not a Pix Automático"}
	}
	return &sub, nil
}

// subscriptionID is the id a read or a cancel names: the globalID, or
// PixGate's id when the globalID is not known yet.
func subscriptionID(op string, ref providerclient.RecurrenceRef) (string, error) {
	id := cmp.Or(ref.ProviderID, ref.ID)
	if id == "" {
		return "", &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
			Message: "neither the provider's id nor PixGate's names the recurrence"}
	}
	return id, nil
}
