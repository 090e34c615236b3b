package sandbox

import (
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
)

// Journey QR_WITH_PAYMENT (the BCB's JORNADA_3): one BR Code pays an
// ordinary immediate charge, the first payment, and asks the payer's
// consent to the recurrence. The face creates the charge first (the family
// face from the request's firstPayment, the efi face's client with a cob)
// and names it in recurrenceSpec.firstPayment; the core gives the charge
// and the recurrence the same composite code (the charge's location in 26,
// the recurrence's in 80), and the payer's approval pays the charge before
// it approves the recurrence. A recurrence that ends otherwise leaves its
// charge unpaid, to expire as any charge.

// composeFirstPayment makes the PENDING charge id the first payment of the
// recurrence at location: its BR Code becomes the composite one, which it
// returns, with undo to give the charge back its own code when the
// recurrence is not made after all. An unknown charge is ErrNotFound; a
// due-date one, one no longer PENDING, or one already a recurrence's first
// payment is ErrConflict. Callers hold s.mu.
func (s *Sandbox) composeFirstPayment(id, location string, now time.Time) (code string, undo func(), err error) {
	c := s.records[id]
	switch {
	case c == nil || c.kind != contract.TypeReceivePix:
		return "", nil, fmt.Errorf("%w: first payment %s is no charge", ErrNotFound, id)
	case c.due != nil:
		return "", nil, fmt.Errorf("%w: first payment %s is a due-date charge", ErrConflict, id)
	case c.statusAt(now) != contract.StatusPending:
		return "", nil, fmt.Errorf("%w: first payment %s is %s, not PENDING", ErrConflict, id, c.statusAt(now))
	}
	// A code that carries a recurrence already is another's first payment.
	code, err = brcode.WithRecurrence(c.qrcode, location)
	if err != nil {
		return "", nil, fmt.Errorf("%w: first payment %s: %v", ErrConflict, id, err)
	}
	own := c.qrcode
	if err := s.commit(c, func() { c.qrcode = code }); err != nil {
		return "", nil, err
	}
	undo = func() {
		if err := s.commit(c, func() { c.qrcode = own }); err != nil {
			s.log.Error("sandbox could not give a first payment back its own code", "transaction_id", id, "error", err)
		}
	}
	return code, undo, nil
}

// payFirstPaymentLocked pays the first payment id (none: "") as the
// charge-pay control does, by the payer it names (the recurrence's), when
// it is still PENDING: one already paid or expired is left as it is.
// Callers hold s.mu.
func (s *Sandbox) payFirstPaymentLocked(id string, now time.Time) error {
	c := s.records[id]
	if id == "" || c == nil || c.kind != contract.TypeReceivePix || c.statusAt(now) != contract.StatusPending {
		return nil
	}
	_, err := s.payLocked(c, contract.Party{}, now, 0)
	return err
}

// firstPaymentView is the first payment r names, as the answers give it.
// Callers hold s.mu.
func firstPaymentView(r *record) *contract.FirstPayment {
	if r.rec == nil || r.rec.FirstPayment == "" {
		return nil
	}
	return &contract.FirstPayment{TransactionID: r.rec.FirstPayment, QRCode: r.qrcode}
}
