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
	"time"

	"github.com/google/uuid"

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
//		_, err = tx.CreatePostback(ctx, postback.NewPostback(ev))
//	}
func NewPostback(e Event) storage.NewPostback {
	id := uuid.Must(uuid.NewV7())
	msg := tasks.PostbackDeliverMessage(id, 0)
	return storage.NewPostback{
		ID: id, IntegratorID: e.IntegratorID, ResourceType: e.ResourceType, ResourceID: e.ResourceID,
		Event: e.Name, URL: e.URL, Body: e.Body,
		Outbox: storage.OutboxMessage(msg),
	}
}

// brasilia is the family's clock for dates: UTC−3 all year (Brazil has had
// no daylight saving time since 2019). A fixed zone needs no tzdata.
var brasilia = time.FixedZone("BRT", -3*60*60)

// familyDate renders t as the family does, "YYYY-MM-DD HH:MM:SS" in
// Brasília time; nil stays null.
func familyDate(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.In(brasilia).Format(time.DateTime)
	return &s
}

type envelope struct {
	RequestBody any `json:"requestBody"`
}

func body(v any) []byte {
	b, err := json.Marshal(envelope{v})
	if err != nil {
		panic(fmt.Sprintf("postback: body does not marshal: %v", err)) // plain structs: cannot happen
	}
	return b
}

// payerParty is the payer, which the family puts under creditParty.
type payerParty struct {
	Name  string  `json:"name"`
	Email *string `json:"email"`
	TaxID string  `json:"taxId"`
}

type chargeBody struct {
	TransactionType string      `json:"transactionType"`
	TransactionID   *string     `json:"transactionId"`
	ExternalID      string      `json:"external_id"`
	Amount          money.Money `json:"amount"`
	PaymentType     string      `json:"paymentType"`
	Status          string      `json:"status"`
	DateApproval    *string     `json:"dateApproval"`
	CreditParty     payerParty  `json:"creditParty"`
	DebitParty      struct{}    `json:"debitParty"` // the payer's bank: not known to PixGate
	FailureReason   *string     `json:"failure_reason,omitempty"`
	ID              uuid.UUID   `json:"id"`
	Fee             money.Money `json:"fee"`
	NetAmount       money.Money `json:"net_amount"`
}

// ForCharge is the postback of a charge's current status. ok is false when
// the charge has no postback URL or its status is not one integrators are
// told about (PENDING is the state they created).
func ForCharge(c storage.Charge) (Event, bool) {
	switch c.Status {
	case storage.ChargePaid, storage.ChargeExpired, storage.ChargeRefunded, storage.ChargeFailed:
	default:
		return Event{}, false
	}
	if c.PostbackURL == nil || *c.PostbackURL == "" {
		return Event{}, false
	}
	b := chargeBody{
		TransactionType: "RECEIVEPIX", TransactionID: c.PixID, ExternalID: c.ExternalID,
		Amount: c.Amount, PaymentType: "PIX", Status: c.Status, DateApproval: familyDate(c.PaidAt),
		CreditParty:   payerParty{Name: c.Payer.Name, Email: c.Payer.Email, TaxID: c.Payer.Document},
		FailureReason: c.FailureReason, ID: c.ID, Fee: c.Fee, NetAmount: c.Net(),
	}
	return Event{ResourceType: "charge", ResourceID: c.ID, IntegratorID: c.IntegratorID, Name: c.Status,
		URL: *c.PostbackURL, Body: body(b)}, true
}
