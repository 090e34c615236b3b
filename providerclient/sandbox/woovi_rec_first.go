package sandbox

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Journey 3 on the woovi face, PAYMENT_ON_APPROVAL ([Woovi-Create]): the
// subscription's value is charged first, by a charge whose location the
// emv carries beside the recurrence's, paid when the payer approves. The
// face makes that charge as an ordinary one of its own (the core's first
// payment), under the subscription's correlationID, before the
// subscription: GET /api/v1/charge/{correlationID} reads it, and its
// payment is told by OPENPIX:CHARGE_COMPLETED as any charge's. Its
// installment is the subscription's first, paid with it, and never gets
// a cobr (docs/provider.md, "Recurrences (woovi)").

// firstCharge makes the first charge of sp, a PAYMENT_ON_APPROVAL
// subscription of value, and names it in sp; nothing for another journey.
// A subscription under the correlationID already is refused before any
// charge is made, as is a charge under it of another value; one of the
// same value, still without its subscription (an earlier try the store
// refused), is taken again. It returns Woovi's complaint and its status.
func (f wooviFace) firstCharge(sp *recurrenceSpec, value int64, now time.Time) (int, string) {
	if sp.data.Journey != recurrence.JourneyQRWithPayment {
		return 0, ""
	}
	f.s.mu.Lock()
	used := f.s.lookupExternal(contract.TypeRecurrence, sp.externalID) != nil
	f.s.mu.Unlock()
	if used {
		return http.StatusBadRequest, "a subscription with this correlationID already exists"
	}
	p := sp.data.Payer
	charge, created, err := f.s.createCharge(chargeSpec{id: sp.externalID, externalID: sp.externalID, amount: money.Money(value),
		debtor:      contract.Party{Name: p.Name, TaxID: p.Document, Email: p.Email},
		description: sp.description, postbackURL: sp.postbackURL, expiration: sp.deadline.Sub(now)}, now)
	switch {
	case err != nil:
		return http.StatusServiceUnavailable, err.Error()
	case !created && int64(charge.amount) != value:
		return http.StatusBadRequest, "a charge with this correlationID already exists"
	}
	sp.firstPayment = charge.id
	return 0, ""
}

// wooviJourneyOf is Woovi's name of a subscription's journey.
func wooviJourneyOf(d *RecurrenceData) string {
	if d.FirstPayment != "" {
		return wooviapi.JourneyPaymentOnApproval
	}
	return wooviapi.JourneyOnlyRecurrency
}

// firstInstallment renders into inst the installment a first payment
// pays, when n is it: its charge's value, COMPLETED once paid. Callers
// hold s.mu.
func (f wooviFace) firstInstallment(inst *wooviapi.Installment, sub *record, n int, now time.Time) bool {
	c := f.s.records[sub.rec.FirstPayment]
	if n != 0 || c == nil {
		return false
	}
	inst.Value = int64(c.amount)
	if c.statusAt(now) == contract.StatusPaid {
		inst.Status = wooviapi.InstallmentCompleted
	}
	return true
}
