package storage

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// PixTransaction is one of an integrator's charges or transfers, as its
// pix_id names it: exactly one of Charge and Transfer is set.
type PixTransaction struct {
	Charge   *Charge
	Transfer *Transfer
}

// TransactionByPixID finds the integrator's transaction whose pix_id is
// pixID: a charge by the provider's id for it, a transfer by PixGate's
// (see TransferPixID). Another integrator's is ErrNotFound, like one that
// does not exist.
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
	for _, kind := range TransferKinds {
		t, err := kind.selectOne(ctx, db.pool, `integrator_id = $1 AND id = $2`, integratorID, id)
		if !errors.Is(err, ErrNotFound) {
			return PixTransaction{Transfer: &t}, err
		}
	}
	return PixTransaction{}, ErrNotFound
}
