package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
)

// alsoFunc runs in the transaction that applies a confirmed state, with its
// outcome (to mark the notification that led there as processed).
type alsoFunc func(tx Tx, o outcome) error

// applyConfirmed brings PixGate's record of a transaction to the state the
// provider confirmed, with its ledger posting and its postback, in one SQL
// transaction; also runs in that same transaction. It is the one place
// where provider state becomes money, used by notifications and by the
// reconciler alike, and it is idempotent: every transition is guarded by
// the record's status and every posting by its unique reference.
//
// The record is found by the id PixGate sent at creation, as the provider
// echoes it, and cross-checked with the provider's id, so the
// notification's own claims never select what is credited.
func (w *Worker) applyConfirmed(ctx context.Context, txn *providerclient.Transaction, also alsoFunc) (outcome, error) {
	return w.applySeen(ctx, txn, seen{}, also)
}

// seen is the record a notification named, as read before its consult
// (eventRef); nil where none was read.
type seen struct {
	charge   *storage.Charge
	transfer *storage.Transfer
}

// provider is the provider recorded on the record seen; "" (the default)
// when none was.
func (s seen) provider() string {
	switch {
	case s.charge != nil:
		return s.charge.Provider
	case s.transfer != nil:
		return s.transfer.Provider
	}
	return ""
}

// applySeen is applyConfirmed with the record already read: when it is
// the one the confirmed transaction names (PixGate's id and the
// provider's), it is not read again. Every transition is guarded by the
// record's status in its own statement, so an earlier read changes
// nothing but the round trip.
func (w *Worker) applySeen(ctx context.Context, txn *providerclient.Transaction, known seen, also alsoFunc) (outcome, error) {
	if also == nil {
		also = func(Tx, outcome) error { return nil }
	}
	if txn.Kind == providerclient.KindCharge {
		return w.applyCharge(ctx, txn, known.charge, also)
	}
	if kind, ok := transferKindOf(txn.Kind); ok {
		if known.transfer != nil && known.transfer.Kind != kind {
			known.transfer = nil
		}
		return w.applyTransfer(ctx, kind, txn, known.transfer, also)
	}
	return w.record(ctx, outcome{ignored, fmt.Sprintf("unknown transaction type %q", txn.Kind)}, also)
}

// record records an outcome that changes nothing.
func (w *Worker) record(ctx context.Context, o outcome, also alsoFunc) (outcome, error) {
	return o, w.tx.InTx(ctx, func(tx Tx) error { return also(tx, o) })
}

func (w *Worker) applyCharge(ctx context.Context, txn *providerclient.Transaction, known *storage.Charge, also alsoFunc) (outcome, error) {
	c, none, err := locate(ctx, txn, known, "charge", w.charges.ChargeByID, w.charges.ChargeByPixID,
		func(c storage.Charge) (uuid.UUID, *string) { return c.ID, c.PixID })
	if err != nil {
		return outcome{}, err
	}
	if none != "" {
		return w.record(ctx, outcome{ignored, none}, also)
	}
	switch txn.Status {
	case providerclient.StatusPaid:
		s := settlement(txn)
		if why := paidAsAsked(c, txn, &s); why != "" {
			// Never credit an amount the charge did not ask for; an operator
			// must look at it.
			w.log.Error("provider reports a payment of a different amount; not credited", "charge_id", c.ID,
				"charge_amount", c.Amount.String(), "provider_amount", txn.Amount.String(), "why", why)
			return w.record(ctx, outcome{refused, why}, also)
		}
		s.PayerDocument, s.Return = sameHolderReturn(c, txn)
		return w.transition(ctx, "charge paid", also, func(tx Tx) (bool, error) {
			_, changed, err := settle(ctx, "charge paid", c.TraceParent, func(ctx context.Context) (struct{}, bool, error) {
				paid, changed, err := tx.MarkChargePaid(ctx, c.ID, tracedReturn(ctx, s))
				if err != nil || !changed {
					return struct{}{}, changed, err
				}
				if paid.ReturnedReason != nil {
					// No PAID postback for money the integrator may not keep: the
					// refund that returns it tells, with why.
					w.log.InfoContext(ctx, "same-holder charge paid by another document; returned to its payer", "charge_id", c.ID)
					return struct{}{}, true, nil
				}
				return struct{}{}, true, writePostback(ctx, tx, chargePostback(paid))
			})
			return changed, err
		})
	case providerclient.StatusExpired:
		return w.transition(ctx, "charge expired", also, func(tx Tx) (bool, error) {
			exp, changed, err := tx.ExpireCharge(ctx, c.ID)
			if err != nil || !changed {
				return changed, err
			}
			return true, writePostback(ctx, tx, chargePostback(exp))
		})
	}
	return w.record(ctx, outcome{noChange, "charge is " + string(txn.Status) + " at the provider"}, also)
}

// transition runs one guarded state change in a transaction, with also:
// applied, or already applied by an earlier delivery.
func (w *Worker) transition(ctx context.Context, what string, also alsoFunc, change func(Tx) (bool, error)) (outcome, error) {
	var o outcome
	err := w.tx.InTx(ctx, func(tx Tx) error {
		changed, err := change(tx)
		if err != nil {
			return err
		}
		o = outcome{applied, what}
		if !changed {
			o.kind = alreadyApplied
		}
		return also(tx, o)
	})
	return o, err
}

// locate finds the record a confirmed transaction is about: by the
// provider's external_id (PixGate's id), else by the provider's transaction
// id, and cross-checked with that id. none says why there is none of
// PixGate's to change. known, when not nil, is a record read already: it is
// the answer, unread again, when it has both ids.
func locate[T any](ctx context.Context, txn *providerclient.Transaction, known *T, what string,
	byID func(context.Context, uuid.UUID) (T, error), byPixID func(context.Context, string) (T, error),
	ident func(T) (uuid.UUID, *string)) (rec T, none string, err error) {
	id, perr := uuid.Parse(txn.ExternalID)
	if known != nil {
		if kid, pixID := ident(*known); perr == nil && kid == id && pixID != nil && *pixID == txn.ProviderID {
			return *known, "", nil
		}
	}
	err = storage.ErrNotFound
	if perr == nil {
		rec, err = byID(ctx, id)
	}
	if errors.Is(err, storage.ErrNotFound) {
		rec, err = byPixID(ctx, txn.ProviderID)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return rec, "no " + what + " for transaction " + txn.ProviderID, nil
	}
	if err != nil {
		return rec, "", err
	}
	if id, pixID := ident(rec); pixID != nil && *pixID != txn.ProviderID {
		return rec, fmt.Sprintf("%s %s belongs to transaction %s", what, id, *pixID), nil
	}
	return rec, "", nil
}

func approvedAt(txn *providerclient.Transaction) time.Time {
	if !txn.SettledAt.IsZero() {
		return txn.SettledAt
	}
	return time.Now()
}

// paidAsAsked says why a payment the provider confirmed is not what the
// charge asked ("" when it is). An immediate charge asks its amount; a
// due-date charge not yet paid asks what its terms ask on the day it was
// paid in Brasília, whose amount and fee s then carries. A charge already
// paid asks what it was paid.
func paidAsAsked(c storage.Charge, txn *providerclient.Transaction, s *storage.Settlement) string {
	if c.Due == nil || c.Status.Settled() {
		if txn.Amount != c.Amount {
			return fmt.Sprintf("paid %s but the charge is %s", txn.Amount, c.Amount)
		}
		return ""
	}
	fee, why, ok := c.Due.Settle(due.Today(s.At), txn.Amount)
	if !ok {
		return why
	}
	s.Amount, s.Fee = txn.Amount, fee
	return ""
}

// settlement is what PixGate keeps of a confirmed payment: the provider's
// ids, when, and for a charge the account it was paid from (when the
// provider says), so consult-transaction and the postback can tell it.
func settlement(txn *providerclient.Transaction) storage.Settlement {
	s := storage.Settlement{PixID: txn.ProviderID, EndToEndID: txn.EndToEndID, At: approvedAt(txn)}
	if d := txn.PayerAccount; d != nil {
		s.PayerAccount = storage.PayerAccount{Name: providerText(d.Name), TaxID: providerText(d.Document), Bank: providerText(d.Bank)}
	}
	return s
}

// providerText is a short text the provider reported, as PixGate keeps and
// shows it: trimmed, and nothing when it is longer than 100 characters or
// holds control or formatting characters (it reaches integrators' screens
// and logs; what is not plain is not kept).
func providerText(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 100 || !utf8.ValidString(s) ||
		strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0 {
		return ""
	}
	return s
}

// failureReason is what integrators read in failure_reason: the provider's
// reason, without prefixes of PixGate's or the provider's making.
func failureReason(txn *providerclient.Transaction) string {
	if txn.FailureReason != "" {
		return txn.FailureReason
	}
	return "the provider reported the transaction as failed"
}
