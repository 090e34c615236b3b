package family

import (
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// The contract's wire types, under the names the Client's methods use.
type (
	ChargeRequest  = contract.ChargeRequest
	Payer          = contract.Payer
	PaymentRequest = contract.PaymentRequest
	CreditParty    = contract.Party
	Payment        = contract.Payment
	RefundRequest  = contract.RefundRequest
	Refund         = contract.Refund
	Balance        = contract.Balance
	// Transaction is a charge, payment or refund as consult-transaction
	// describes it; its type and status are uppercased.
	Transaction = contract.Transaction
	StatusCode  = contract.StatusCode
)

// Charge is the provider's answer to a charge, with its expiry read.
type Charge struct {
	contract.Charge
	// ExpiresAt is when the charge stops being payable: calendar.dueDate
	// when present, else the answer's arrival plus calendar.expiration
	// seconds.
	ExpiresAt time.Time `json:"-"`
}

func (c *Charge) setExpiry(received time.Time) {
	if t := contract.ParseDate(c.Calendar.DueDate); !t.IsZero() {
		c.ExpiresAt = t
		return
	}
	c.ExpiresAt = received.Add(time.Duration(c.Calendar.Expiration) * time.Second)
}

// DecodeTransaction reads a consult-transaction answer or a provider
// notification (see contract.DecodeTransaction).
func DecodeTransaction(body []byte) (*Transaction, error) {
	t, err := contract.DecodeTransaction(body)
	if err != nil {
		return nil, err
	}
	return &t, nil
}
