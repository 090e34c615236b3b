package sandbox

import (
	"errors"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// Errors of the control methods.
var (
	// ErrNotFound: no transaction has that id.
	ErrNotFound = errors.New("transaction not found")
	// ErrConflict: the transaction is not in a state the action applies to
	// (paying a charge that is not PENDING, settling one not PROCESSING).
	ErrConflict = errors.New("transaction is not in a state for this action")
)

// Failure reasons of settlement.
const (
	reasonFailKey = "the receiving institution rejected the PIX key"
	reasonManual  = "failed through the sandbox control"
)

// scheduleSettle starts the settlement timer of a PROCESSING payment or
// refund, unless settlement is manual. Callers hold s.mu.
func (s *Sandbox) scheduleSettle(r *record) {
	if s.faults.ManualSettle {
		return
	}
	delay := s.cfg.SettleDelay
	if s.faults.SettleDelay > 0 {
		delay = s.faults.SettleDelay
	}
	s.armSettle(r.id, delay)
}

// armSettle settles transfer id on its own after delay. Callers hold s.mu.
func (s *Sandbox) armSettle(id string, delay time.Duration) {
	if s.closed {
		return
	}
	s.timers[id] = time.AfterFunc(delay, func() { s.autoSettle(id) })
}

// autoSettle settles a transfer when its timer fires: FAILED when its key is
// in fail_keys, COMPLETED otherwise. When the store does not take the
// settlement, it is tried again after the settlement delay.
func (s *Sandbox) autoSettle(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.timers, id)
	r := s.records[id]
	if s.closed || r == nil || r.status != contract.StatusProcessing {
		return
	}
	ok, reason := true, ""
	if r.kind == contract.TypePayment && s.faults.failsKey(r.creditParty.KeyType, r.creditParty.Key) {
		ok, reason = false, reasonFailKey
	}
	if err := s.finish(r, ok, reason, time.Now()); err != nil {
		s.armSettle(id, s.cfg.SettleDelay)
	}
}

// Settle completes a PROCESSING payment or refund now, whatever fail_keys
// says, and notifies its postback URL.
func (s *Sandbox) Settle(id string) (Transaction, error) {
	return s.settleNow(id, true, "")
}

// Fail fails a PROCESSING payment or refund now and notifies its postback
// URL; the money goes back to the available balance. An empty reason gets a
// default one.
func (s *Sandbox) Fail(id, reason string) (Transaction, error) {
	if reason == "" {
		reason = reasonManual
	}
	return s.settleNow(id, false, reason)
}

func (s *Sandbox) settleNow(id string, ok bool, reason string) (Transaction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.records[id]
	if r == nil {
		return Transaction{}, ErrNotFound
	}
	now := time.Now()
	if r.kind == contract.TypeReceivePix || r.kind == contract.TypeInfraction || r.status != contract.StatusProcessing {
		return s.view(r, now), fmt.Errorf("%w: %s %s is %s, not PROCESSING", ErrConflict, r.kind, r.id, r.statusAt(now))
	}
	if err := s.finish(r, ok, reason, now); err != nil {
		return Transaction{}, err
	}
	if t := s.timers[id]; t != nil {
		t.Stop()
		delete(s.timers, id)
	}
	return s.view(r, now), nil
}

// finish moves a PROCESSING transfer to COMPLETED or FAILED, moves the
// balance, and notifies once that is durable. Callers hold s.mu.
func (s *Sandbox) finish(r *record, ok bool, reason string, now time.Time) error {
	prefix := byte('E')
	if returnsMoney(r.kind) {
		prefix = 'D'
	}
	err := s.commit(r, func() {
		s.pending -= r.amount
		if r.endToEndID == "" { // an efi send or refund has its id from the start
			r.endToEndID = newEndToEndID(prefix, now)
		}
		if ok {
			r.status, r.approved = contract.StatusCompleted, now
			return
		}
		r.status, r.failure = contract.StatusFailed, reason
		s.available += r.amount
		if charge := s.records[r.pixID]; returnsMoney(r.kind) && charge != nil {
			charge.refunded -= r.amount
		}
	})
	if err != nil {
		return err
	}
	s.notifyLocked(r, now)
	return nil
}
