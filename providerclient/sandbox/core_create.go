package sandbox

import (
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The core's creations, shared by every face: each face parses and checks
// its contract's request, then asks the core, which owns the state, the
// balance, settlement and persistence.

// chargeSpec is a charge to create. id is the record's id (the family's
// transactionId is the sandbox's own; a BCB txid is the client's);
// externalID, when set, makes the creation idempotent.
type chargeSpec struct {
	id, externalID string
	amount         money.Money
	debtor         contract.Party
	description    string
	postbackURL    string
	expiration     time.Duration
	// due makes it a due-date charge: amount is due.Original, it can be
	// paid until the end of due.LastDay in Brasília, and its BR Code names
	// a location (cobv) whose payload says the amount of the day.
	due *due.Terms
}

// createCharge creates a PENDING charge with a dynamic BR Code, or returns
// the one already created for spec.externalID (created false).
func (s *Sandbox) createCharge(sp chargeSpec, now time.Time) (rec *record, created bool, err error) {
	if sp.expiration <= 0 {
		sp.expiration = s.cfg.ChargeExpiration
	}
	expires, amount, loc := now.Add(sp.expiration), sp.amount, s.location(sp.id)
	if sp.due != nil {
		// The amount depends on the day it is paid: the payer's bank reads
		// it at the location, so the BR Code carries none.
		sp.amount = sp.due.Original
		expires, amount, loc = sp.due.LastDay().End(), 0, s.location("cobv/"+sp.id)
	}
	code, err := brcode.Encode(brcode.Payload{
		MerchantName: s.cfg.MerchantName, MerchantCity: s.cfg.MerchantCity,
		Location: loc, Amount: amount,
	})
	if err != nil {
		return nil, false, fmt.Errorf("encode the BR Code: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.lookupExternal(contract.TypeReceivePix, sp.externalID); old != nil {
		return old, false, nil
	}
	rec = &record{
		kind: contract.TypeReceivePix, id: sp.id, externalID: sp.externalID,
		amount: sp.amount, status: contract.StatusPending, postbackURL: sp.postbackURL,
		description: sp.description, created: now, expires: expires,
		debtor: sp.debtor, qrcode: code, due: sp.due,
	}
	if err := s.commit(rec, func() { s.insert(rec) }); err != nil {
		return nil, false, err
	}
	s.stats.add(&s.stats.charges)
	return rec, true, nil
}

// payoutSpec is a PIX to send.
type payoutSpec struct {
	id, externalID string
	endToEndID     string // set now by contracts that answer it at once
	amount         money.Money
	description    string
	postbackURL    string
	creditParty    contract.Party
}

// errInsufficient: the account cannot pay the transfer.
var errInsufficient = fmt.Errorf("insufficient balance")

// createPayout sends a PIX from the account (PROCESSING, settled later), or
// returns the one already sent for spec.externalID: never twice.
func (s *Sandbox) createPayout(sp payoutSpec, now time.Time) (rec *record, created bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.lookupExternal(contract.TypePayment, sp.externalID); old != nil {
		return old, false, nil
	}
	if err := payable(sp.creditParty.KeyType, sp.creditParty.Key); err != nil {
		return nil, false, err
	}
	if s.available < sp.amount {
		return nil, false, errInsufficient
	}
	rec = &record{
		kind: contract.TypePayment, id: sp.id, externalID: sp.externalID,
		amount: sp.amount, status: contract.StatusProcessing, description: sp.description,
		postbackURL: sp.postbackURL, created: now, creditParty: sp.creditParty, endToEndID: sp.endToEndID,
	}
	err = s.commit(rec, func() {
		s.insert(rec)
		s.available -= sp.amount
		s.pending += sp.amount
	})
	if err != nil {
		return nil, false, err
	}
	s.scheduleSettle(rec)
	s.stats.add(&s.stats.payments)
	return rec, true, nil
}

// refundSpec is a refund of a paid charge.
type refundSpec struct {
	id, externalID string
	endToEndID     string // set now by contracts that answer it at once (rtrId)
	chargeID       string
	amount         money.Money
	description    string
	postbackURL    string
}

// refusal is a refund the charge's state does not allow; its text says why.
type refusal string

func (r refusal) Error() string { return string(r) }

// createRefund returns part or all of a PAID charge to its payer, or returns
// the refund already created for spec.externalID. The refunds of a charge
// (those not FAILED) never add up to more than its amount. An unknown
// charge is ErrNotFound; a charge that cannot be refunded so is a refusal.
func (s *Sandbox) createRefund(sp refundSpec, now time.Time) (rec *record, created bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.lookupExternal(contract.TypeRefund, sp.externalID); old != nil {
		return old, false, nil
	}
	charge := s.records[sp.chargeID]
	if charge == nil {
		return nil, false, ErrNotFound
	}
	if msg := refundRefusal(charge, sp.amount, now); msg != "" {
		return nil, false, refusal(msg)
	}
	if s.available < sp.amount {
		return nil, false, errInsufficient
	}
	rec = &record{
		kind: contract.TypeRefund, id: sp.id, externalID: sp.externalID,
		amount: sp.amount, status: contract.StatusProcessing, description: sp.description,
		postbackURL: sp.postbackURL, created: now, pixID: charge.id, endToEndID: sp.endToEndID,
	}
	err = s.commit(rec, func() {
		s.insert(rec)
		charge.refunded += sp.amount
		s.available -= sp.amount
		s.pending += sp.amount
	})
	if err != nil {
		return nil, false, err
	}
	s.scheduleSettle(rec)
	s.stats.add(&s.stats.refunds)
	return rec, true, nil
}

// location is the payload location of a charge's BR Code (at most 77
// characters): the sandbox's public host and the charge's id.
func (s *Sandbox) location(id string) string {
	prefix := s.cfg.PublicHost + "/qr/v2/"
	if room := 77 - len(prefix); len(id) > room {
		id = id[:room]
	}
	return prefix + id
}
