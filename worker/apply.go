package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage"
)

// applyConfirmed brings PixGate's record of a transaction to the state the
// provider confirmed, with its ledger posting and its postback, in one SQL
// transaction; also(tx, outcome) runs in that same transaction (to mark the
// event that led here as processed). It is the one place where provider
// state becomes money, used by notifications and by the reconciler alike,
// and it is idempotent: every transition is guarded by the record's status
// and every posting by its unique reference.
//
// The record is found by the provider's external_id (PixGate's own id, sent
// at creation) and cross-checked with the transaction id, so the
// notification's own claims never select what is credited.
func (w *Worker) applyConfirmed(ctx context.Context, txn *providerclient.Transaction, also func(tx *storage.Tx, outcome string) error) (string, error) {
	if also == nil {
		also = func(*storage.Tx, string) error { return nil }
	}
	switch txn.TransactionType {
	case contract.TypeReceivePix:
		return w.applyCharge(ctx, txn, also)
	case contract.TypePayment:
		return applyTransfer(ctx, w, txn, also, w.withdrawals())
	case contract.TypeRefund:
		return applyTransfer(ctx, w, txn, also, w.refunds())
	}
	return w.ignore(ctx, fmt.Sprintf("ignored: unknown transaction type %q", txn.TransactionType), also)
}

// ignore records an outcome that changes nothing.
func (w *Worker) ignore(ctx context.Context, outcome string, also func(*storage.Tx, string) error) (string, error) {
	return outcome, w.deps.DB.InTx(ctx, func(tx *storage.Tx) error { return also(tx, outcome) })
}

func (w *Worker) applyCharge(ctx context.Context, txn *providerclient.Transaction, also func(*storage.Tx, string) error) (string, error) {
	c, ignored, err := locate(ctx, txn, "charge", w.deps.DB.ChargeByID, w.deps.DB.ChargeByPixID,
		func(c storage.Charge) (uuid.UUID, *string) { return c.ID, c.PixID })
	if err != nil || ignored != "" {
		return w.ignoreOr(ctx, ignored, err, also)
	}
	switch txn.Status {
	case contract.StatusPaid:
		if txn.Amount != c.Amount {
			// Never credit an amount the charge did not ask for; an operator
			// must look at it.
			w.log.Error("provider reports a payment of a different amount; not credited", "charge_id", c.ID,
				"charge_amount", c.Amount.String(), "provider_amount", txn.Amount.String())
			return w.ignore(ctx, fmt.Sprintf("refused: paid %s but the charge is %s", txn.Amount, c.Amount), also)
		}
		return w.transition(ctx, "charge paid", also, func(tx *storage.Tx) (bool, error) {
			paid, changed, err := tx.MarkChargePaid(ctx, c.ID, settlement(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, writePostback(ctx, tx, chargePostback(paid))
		})
	case contract.StatusExpired:
		return w.transition(ctx, "charge expired", also, func(tx *storage.Tx) (bool, error) {
			exp, changed, err := tx.ExpireCharge(ctx, c.ID)
			if err != nil || !changed {
				return changed, err
			}
			return true, writePostback(ctx, tx, chargePostback(exp))
		})
	}
	return w.ignore(ctx, "no change: charge is "+txn.Status+" at the provider", also)
}

// Outcomes of a transition: the record reached the confirmed state now, or
// had reached it before.
const (
	outcomeApplied        = "applied: "
	outcomeAlreadyApplied = "already applied: "
)

// reached says whether an outcome left the record in the state the provider
// confirmed (as opposed to ignored, refused or no change).
func reached(outcome string) bool {
	return strings.HasPrefix(outcome, outcomeApplied) || strings.HasPrefix(outcome, outcomeAlreadyApplied)
}

// transition runs one guarded state change in a transaction and names the
// outcome: done, or already done by an earlier delivery.
func (w *Worker) transition(ctx context.Context, what string, also func(*storage.Tx, string) error, change func(*storage.Tx) (bool, error)) (string, error) {
	var outcome string
	err := w.deps.DB.InTx(ctx, func(tx *storage.Tx) error {
		changed, err := change(tx)
		if err != nil {
			return err
		}
		outcome = outcomeApplied + what
		if !changed {
			outcome = outcomeAlreadyApplied + what
		}
		return also(tx, outcome)
	})
	return outcome, err
}

// locate finds the record a confirmed transaction is about: by the
// provider's external_id (PixGate's id), else by the provider's transaction
// id, and cross-checked with that id. ignored names why there is none of
// PixGate's to change.
func locate[T any](ctx context.Context, txn *providerclient.Transaction, what string,
	byID func(context.Context, uuid.UUID) (T, error), byPixID func(context.Context, string) (T, error),
	ident func(T) (uuid.UUID, *string)) (rec T, ignored string, err error) {
	err = storage.ErrNotFound
	if id, perr := uuid.Parse(txn.ExternalID); perr == nil {
		rec, err = byID(ctx, id)
	}
	if errors.Is(err, storage.ErrNotFound) {
		rec, err = byPixID(ctx, txn.TransactionID)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return rec, "ignored: no " + what + " for transaction " + txn.TransactionID, nil
	}
	if err != nil {
		return rec, "", err
	}
	if id, pixID := ident(rec); pixID != nil && *pixID != txn.TransactionID {
		return rec, fmt.Sprintf("ignored: %s %s belongs to transaction %s", what, id, *pixID), nil
	}
	return rec, "", nil
}

// ignoreOr returns err, or records the ignored outcome.
func (w *Worker) ignoreOr(ctx context.Context, ignored string, err error, also func(*storage.Tx, string) error) (string, error) {
	if err != nil {
		return "", err
	}
	return w.ignore(ctx, ignored, also)
}

func approvedAt(txn *providerclient.Transaction) time.Time {
	if at := txn.ApprovedAt(); !at.IsZero() {
		return at
	}
	return time.Now()
}

func settlement(txn *providerclient.Transaction) storage.Settlement {
	return storage.Settlement{PixID: txn.TransactionID, EndToEndID: txn.EndToEndID, At: approvedAt(txn)}
}

// failureReason is what integrators read in failure_reason: the provider's
// reason, without prefixes of PixGate's or the provider's making.
func failureReason(txn *providerclient.Transaction) string {
	switch {
	case txn.FailureReason != "":
		return txn.FailureReason
	case txn.StatusCode != nil && txn.StatusCode.Description != "":
		return txn.StatusCode.Description
	}
	return "the provider reported the transaction as failed"
}
