package storage

import (
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// refundReservation is the posting that holds amount + fee of a new refund
// until it settles or fails, given held, the refunded charge's net still
// held in pending (read under the charge's lock). The money comes first
// from the pending balance, as far as that held net goes, and the rest from
// available: money a payer gets back never waits out the hold, and never
// comes out of other charges' held money. fromPending is the part taken
// from pending, which leaves the charge's held net and is recorded on the
// refund (FromPending).
//
// The charge's row is locked before the posting locks the wallet, the
// order every posting about a charge takes, so a refund never deadlocks
// with the release of the same charge, and a release and a refund of one
// charge never both take the same held money.
func refundReservation(f Refund, held money.Money) (reserve ledger.Transaction, fromPending money.Money) {
	total := f.Amount + f.Fee
	fromPending = max(min(held, total), 0)
	entries := []ledger.Entry{{Account: ledger.Of(f.IntegratorID, ledger.Reserved), Amount: total}}
	if fromPending > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Of(f.IntegratorID, ledger.Pending), Amount: -fromPending})
	}
	if total > fromPending {
		entries = append(entries, ledger.Entry{Account: ledger.Of(f.IntegratorID, ledger.Available), Amount: -(total - fromPending)})
	}
	return ledger.Transaction{Reference: "refund:" + f.ID.String() + ":reserve", Kind: "refund.reserve", Entries: entries}, fromPending
}

// heldShort is the refusal of a refund of a held charge that the charge's
// held net and the available balance together do not cover: err, the
// ledger's refusal, as a HeldRefundShortError.
func heldShort(err error, total, fromPending money.Money) error {
	var short *ledger.InsufficientFundsError
	if errors.As(err, &short) && fromPending > 0 {
		return &HeldRefundShortError{Total: total, FromHeld: fromPending, Available: short.Balance}
	}
	return err
}

// HeldRefundShortError refuses a refund of a held charge that the charge's
// held net and the available balance together do not cover. It is a
// ledger.ErrInsufficientFunds; nothing was reserved.
type HeldRefundShortError struct {
	Total     money.Money // amount + fee
	FromHeld  money.Money // what the charge's held net in pending covers
	Available money.Money // the available balance, short of the rest
}

func (e *HeldRefundShortError) Error() string {
	return fmt.Sprintf("insufficient funds: the refund needs %s, the charge's held net covers %s and the available balance %s does not cover the rest",
		e.Total, e.FromHeld, e.Available)
}

// Is makes errors.Is(err, ledger.ErrInsufficientFunds) true.
func (e *HeldRefundShortError) Is(target error) bool { return target == ledger.ErrInsufficientFunds }
