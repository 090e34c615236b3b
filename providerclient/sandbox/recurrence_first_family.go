package sandbox

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The family face's first payment (journey QR_WITH_PAYMENT): the request's
// firstPayment {amount, external_id} becomes an ordinary charge, created
// before the recurrence that names it.

// firstPaymentRequest reads the amount raw, to validate it exactly.
type firstPaymentRequest struct {
	Amount     json.RawMessage `json:"amount"`
	ExternalID string          `json:"external_id"`
}

// firstPaymentTerms is a checked first payment.
type firstPaymentTerms struct {
	amount     money.Money
	externalID string
}

// checkFirstPayment checks raw, the request's firstPayment: required by
// journey QR_WITH_PAYMENT, refused by the others.
func (v *validation) checkFirstPayment(raw json.RawMessage, journey recurrence.Journey) *firstPaymentTerms {
	switch want := journey == recurrence.JourneyQRWithPayment; {
	case !want && present(raw):
		v.add("firstPayment", "is only for the "+string(recurrence.JourneyQRWithPayment)+" journey")
		return nil
	case !want:
		return nil
	case !present(raw):
		v.add("firstPayment", "is required for the "+string(recurrence.JourneyQRWithPayment)+" journey")
		return nil
	}
	var req firstPaymentRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		v.add("firstPayment", "must be an object with amount and external_id")
		return nil
	}
	t := &firstPaymentTerms{amount: v.amount("firstPayment.amount", req.Amount), externalID: strings.TrimSpace(req.ExternalID)}
	if t.amount > brcode.MaxAmount {
		v.add("firstPayment.amount", "is too large")
	}
	if t.externalID == "" {
		v.add("firstPayment.external_id", "is required")
	}
	v.maxLen("firstPayment.external_id", t.externalID, contract.MaxExternalIDLen)
	return t
}

// createFirstPayment creates (or finds, for its external_id) the first
// payment's charge of sp: the recurrence's payer and postbackUrl, paid
// until the consent's deadline; sp then names it.
func (s *Sandbox) createFirstPayment(sp *recurrenceSpec, t *firstPaymentTerms, now time.Time) error {
	if t == nil {
		return nil
	}
	p := sp.data.Payer
	charge, _, err := s.createCharge(chargeSpec{id: newTransactionID(), externalID: t.externalID, amount: t.amount,
		debtor:      contract.Party{Name: p.Name, TaxID: p.Document, Email: p.Email},
		description: sp.description, postbackURL: sp.postbackURL, expiration: sp.deadline.Sub(now)}, now)
	if err != nil {
		return err
	}
	sp.firstPayment = charge.id
	return nil
}

// writeCreateError answers a creation the core did not make: 409 for a
// first payment it refused (another's, or no longer PENDING), 503 for the
// store.
func writeCreateError(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound) {
		writeError(w, http.StatusConflict, err.Error())
		return
	}
	writeError(w, http.StatusServiceUnavailable, err.Error())
}
