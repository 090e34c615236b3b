// Package postback builds, signs and sends the notifications PixGate posts
// to integrators when a charge, withdrawal or refund reaches a new status.
//
// Bodies use the provider family's notification shape ({"requestBody":
// {...}} with transactionType RECEIVEPIX, PAYMENT or REFUND), so an
// integrator moving from a provider of the family parses them unchanged;
// PixGate adds its own fields (id, fee, net_amount) beside the family's.
// The body is built once, inside the transaction of the state change, and
// stored: every attempt sends the same bytes, and the signature covers them.
package postback

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/contractview"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// Event is one postback to create: what happened to which record, where to
// post it, and the body to post.
type Event struct {
	ResourceType string // "charge", "withdrawal" or "refund"
	ResourceID   uuid.UUID
	IntegratorID int64
	Name         string // the status reached, e.g. "PAID"
	URL          string
	Body         []byte
}

// NewPostback is the storage record of an event, with a fresh UUIDv7 (also
// the webhook-id integrators deduplicate on) and the outbox message that
// asks for its first delivery. Callers write it in the transaction of the
// state change:
//
//	if ev, ok := postback.ForCharge(c); ok {
//		err = tx.WritePostback(ctx, postback.NewPostback(ev))
//	}
func NewPostback(e Event) storage.NewPostback {
	id := uuid.Must(uuid.NewV7())
	msg := tasks.NewPostbackMessage(id, tasks.PostbackCopy{IntegratorID: e.IntegratorID, URL: e.URL, Body: string(e.Body)})
	return storage.NewPostback{
		ID: id, IntegratorID: e.IntegratorID, ResourceType: e.ResourceType, ResourceID: e.ResourceID,
		Event: e.Name, URL: e.URL, Body: e.Body,
		Outbox: storage.OutboxMessage(msg),
	}
}

func body(v any) []byte {
	b, err := json.Marshal(contract.Envelope[any]{RequestBody: v})
	if err != nil {
		panic(fmt.Sprintf("postback: body does not marshal: %v", err)) // plain structs: cannot happen
	}
	return b
}

// chargeBody is the charge's RECEIVEPIX transaction with PixGate's
// additions beside the family's fields.
type chargeBody struct {
	contract.Transaction
	ID        uuid.UUID   `json:"id"`
	Fee       money.Money `json:"fee"`
	NetAmount money.Money `json:"net_amount"`
}

// ForCharge is the postback of a charge's current status. ok is false when
// the charge has no postback URL or its status is not one integrators are
// told about by a RECEIVEPIX postback: PAID and EXPIRED. PENDING and FAILED
// are answered to the request that created the charge, and REFUNDED is told
// by the refunds' own postbacks, since code written for the family may take
// any RECEIVEPIX notification for a payment.
func ForCharge(c storage.Charge) (Event, bool) {
	if c.Status != storage.ChargePaid && c.Status != storage.ChargeExpired {
		return Event{}, false
	}
	if c.PostbackURL == nil || *c.PostbackURL == "" {
		return Event{}, false
	}
	b := chargeBody{Transaction: contractview.ChargeTransaction(c), ID: c.ID, Fee: c.Fee, NetAmount: c.Net()}
	return Event{ResourceType: "charge", ResourceID: c.ID, IntegratorID: c.IntegratorID, Name: string(c.Status),
		URL: *c.PostbackURL, Body: body(b)}, true
}
