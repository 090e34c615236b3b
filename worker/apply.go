package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// Transaction types and statuses of the provider contract.
const (
	typeCharge  = "RECEIVEPIX"
	typePayment = "PAYMENT"
	typeRefund  = "REFUND"

	statusPaid      = "PAID"
	statusExpired   = "EXPIRED"
	statusCompleted = "COMPLETED"
	statusFailed    = "FAILED"
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
	var (
		outcome string
		err     error
	)
	switch txn.TransactionType {
	case typeCharge:
		outcome, err = w.applyCharge(ctx, txn, also)
	case typePayment:
		outcome, err = w.applyWithdrawal(ctx, txn, also)
	case typeRefund:
		outcome, err = w.applyRefund(ctx, txn, also)
	default:
		outcome = fmt.Sprintf("ignored: unknown transaction type %q", txn.TransactionType)
		err = w.deps.DB.InTx(ctx, func(tx *storage.Tx) error { return also(tx, outcome) })
	}
	return outcome, err
}

// ignore records an outcome that changes nothing.
func (w *Worker) ignore(ctx context.Context, outcome string, also func(*storage.Tx, string) error) (string, error) {
	return outcome, w.deps.DB.InTx(ctx, func(tx *storage.Tx) error { return also(tx, outcome) })
}

func (w *Worker) applyCharge(ctx context.Context, txn *providerclient.Transaction, also func(*storage.Tx, string) error) (string, error) {
	c, err := findRecord(ctx, txn, w.deps.DB.ChargeByID, w.deps.DB.ChargeByPixID)
	if errors.Is(err, storage.ErrNotFound) {
		return w.ignore(ctx, "ignored: no charge for transaction "+txn.TransactionID, also)
	}
	if err != nil {
		return "", err
	}
	if c.PixID != nil && *c.PixID != txn.TransactionID {
		return w.ignore(ctx, fmt.Sprintf("ignored: charge %s belongs to transaction %s", c.ID, *c.PixID), also)
	}
	switch txn.Status {
	case statusPaid:
		if txn.Amount != c.Amount {
			// Never credit an amount the charge did not ask for; an operator
			// must look at it.
			w.log.Error("provider reports a payment of a different amount; not credited", "charge_id", c.ID,
				"charge_amount", c.Amount.String(), "provider_amount", txn.Amount.String())
			return w.ignore(ctx, fmt.Sprintf("refused: paid %s but the charge is %s", txn.Amount, c.Amount), also)
		}
		return w.transition(ctx, "charge paid", also, func(tx *storage.Tx) (bool, error) {
			paid, changed, err := tx.MarkChargePaid(ctx, c.ID, txn.TransactionID, approvedAt(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, chargePostback(paid))
		})
	case statusExpired:
		return w.transition(ctx, "charge expired", also, func(tx *storage.Tx) (bool, error) {
			exp, changed, err := tx.ExpireCharge(ctx, c.ID)
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, chargePostback(exp))
		})
	}
	return w.ignore(ctx, "no change: charge is "+txn.Status+" at the provider", also)
}

func (w *Worker) applyWithdrawal(ctx context.Context, txn *providerclient.Transaction, also func(*storage.Tx, string) error) (string, error) {
	wd, err := findRecord(ctx, txn, w.deps.DB.WithdrawalByID, w.deps.DB.WithdrawalByPixID)
	if errors.Is(err, storage.ErrNotFound) {
		return w.ignore(ctx, "ignored: no withdrawal for transaction "+txn.TransactionID, also)
	}
	if err != nil {
		return "", err
	}
	if wd.PixID != nil && *wd.PixID != txn.TransactionID {
		return w.ignore(ctx, fmt.Sprintf("ignored: withdrawal %s belongs to transaction %s", wd.ID, *wd.PixID), also)
	}
	switch txn.Status {
	case statusCompleted:
		return w.transition(ctx, "withdrawal completed", also, func(tx *storage.Tx) (bool, error) {
			done, changed, err := tx.CompleteWithdrawal(ctx, wd.ID, settlement(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, withdrawalPostback(done))
		})
	case statusFailed:
		return w.transition(ctx, "withdrawal failed", also, func(tx *storage.Tx) (bool, error) {
			failed, changed, err := tx.FailWithdrawal(ctx, wd.ID, failureReason(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, withdrawalPostback(failed))
		})
	}
	return w.ignore(ctx, "no change: payment is "+txn.Status+" at the provider", also)
}

func (w *Worker) applyRefund(ctx context.Context, txn *providerclient.Transaction, also func(*storage.Tx, string) error) (string, error) {
	f, err := findRecord(ctx, txn, w.deps.DB.RefundByID, w.deps.DB.RefundByPixID)
	if errors.Is(err, storage.ErrNotFound) {
		return w.ignore(ctx, "ignored: no refund for transaction "+txn.TransactionID, also)
	}
	if err != nil {
		return "", err
	}
	if f.PixID != nil && *f.PixID != txn.TransactionID {
		return w.ignore(ctx, fmt.Sprintf("ignored: refund %s belongs to transaction %s", f.ID, *f.PixID), also)
	}
	switch txn.Status {
	case statusCompleted:
		return w.transition(ctx, "refund completed", also, func(tx *storage.Tx) (bool, error) {
			done, changed, err := tx.CompleteRefund(ctx, f.ID, settlement(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, w.refundPostback(ctx, done))
		})
	case statusFailed:
		return w.transition(ctx, "refund failed", also, func(tx *storage.Tx) (bool, error) {
			failed, changed, err := tx.FailRefund(ctx, f.ID, failureReason(txn))
			if err != nil || !changed {
				return changed, err
			}
			return true, w.createPostback(ctx, tx, w.refundPostback(ctx, failed))
		})
	}
	return w.ignore(ctx, "no change: refund is "+txn.Status+" at the provider", also)
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
		outcome = "applied: " + what
		if !changed {
			outcome = "already applied: " + what
		}
		return also(tx, outcome)
	})
	return outcome, err
}

// findRecord locates a record by the provider's external_id (PixGate's id),
// falling back to the provider's transaction id.
func findRecord[T any](ctx context.Context, txn *providerclient.Transaction, byID func(context.Context, uuid.UUID) (T, error),
	byPixID func(context.Context, string) (T, error)) (T, error) {
	if id, err := uuid.Parse(txn.ExternalID); err == nil {
		rec, err := byID(ctx, id)
		if !errors.Is(err, storage.ErrNotFound) {
			return rec, err
		}
	}
	return byPixID(ctx, txn.TransactionID)
}

func approvedAt(txn *providerclient.Transaction) time.Time {
	if !txn.ApprovedAt.IsZero() {
		return txn.ApprovedAt
	}
	return time.Now()
}

func settlement(txn *providerclient.Transaction) storage.Settlement {
	return storage.Settlement{PixID: txn.TransactionID, EndToEndID: txn.EndToEndID, At: approvedAt(txn)}
}

func failureReason(txn *providerclient.Transaction) string {
	if txn.StatusCode != nil && txn.StatusCode.Description != "" {
		return "provider: " + txn.StatusCode.Description
	}
	return "provider reported the transaction as failed"
}
