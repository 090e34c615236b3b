package storage

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// PixTransaction is one of an integrator's charges, withdrawals or refunds,
// as its pix_id names it. Exactly one of Charge, Withdrawal and Refund is
// set; a Refund comes with the charge it refunds.
type PixTransaction struct {
	Charge     *Charge
	Withdrawal *Withdrawal
	Refund     *Refund
	RefundOf   *Charge
}

// ContractTransaction renders whichever record it is as the family's
// transaction.
func (t PixTransaction) ContractTransaction() contract.Transaction {
	switch {
	case t.Charge != nil:
		return t.Charge.ContractTransaction()
	case t.Withdrawal != nil:
		return t.Withdrawal.ContractTransaction()
	case t.Refund != nil:
		return t.Refund.ContractTransaction(deref(t.RefundOf.PixID))
	}
	return contract.Transaction{}
}

// TransactionByPixID finds the integrator's transaction whose pix_id is
// pixID: a charge by the provider's id for it, a withdrawal or refund by
// PixGate's (see TransferPixID). Another integrator's is ErrNotFound, like
// one that does not exist.
func (db *DB) TransactionByPixID(ctx context.Context, integratorID int64, pixID string) (PixTransaction, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+chargeColumns+` FROM charges WHERE integrator_id = $1 AND pix_id = $2`, integratorID, pixID)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	if err == nil || !errors.Is(err, pgx.ErrNoRows) {
		return PixTransaction{Charge: &c}, err
	}
	id, ok := ParseTransferPixID(pixID)
	if !ok {
		return PixTransaction{}, ErrNotFound
	}
	w, err := getOwned(ctx, db, withdrawalTransfers, integratorID, id)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return PixTransaction{Withdrawal: &w}, err
	}
	f, err := getOwned(ctx, db, refundTransfers, integratorID, id)
	if err != nil {
		return PixTransaction{}, err
	}
	refunded, err := getChargeByID(ctx, db.pool, f.ChargeID)
	return PixTransaction{Refund: &f, RefundOf: &refunded}, err
}

// getOwned reads the integrator's transfer of table by id.
func getOwned[T any](ctx context.Context, db *DB, tt transferTable[T], integratorID int64, id uuid.UUID) (T, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+tt.columns+` FROM `+tt.table+` WHERE integrator_id = $1 AND id = $2`, integratorID, id)
	rec, err := pgx.CollectExactlyOneRow(rows, tt.scan)
	return rec, notFound(err)
}
