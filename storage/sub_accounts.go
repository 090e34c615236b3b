package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Sub-accounts are integrators with a parent (NewIntegrator.ParentID): a
// marketplace's sellers. Each has its own ledger accounts, wallet and API
// keys, like any integrator; its parent's split charges credit it
// (docs/api-v1.md#sub-accounts). One level only.

// ErrNotAParent refuses a sub-account of an integrator that is itself a
// sub-account.
var ErrNotAParent = errors.New("a sub-account cannot have sub-accounts")

// checkParent locks the would-be parent's row (so it is not made a
// sub-account meanwhile) and refuses a missing one (ErrNotFound) or a
// sub-account (ErrNotAParent).
func checkParent(ctx context.Context, tx pgx.Tx, parent int64) error {
	var grand *int64
	err := tx.QueryRow(ctx, `SELECT parent_integrator_id FROM integrators WHERE id = $1 FOR SHARE`, parent).Scan(&grand)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("the parent integrator %d: %w", parent, ErrNotFound)
	case err != nil:
		return fmt.Errorf("storage: read integrator %d: %w", parent, err)
	case grand != nil:
		return ErrNotAParent
	}
	return nil
}

// SubAccount is a sub-account with its balances.
type SubAccount struct {
	Integrator
	Wallet Wallet
}

// SubAccounts returns parent's sub-accounts, oldest first, with their
// balances.
func (db *DB) SubAccounts(ctx context.Context, parent int64) ([]SubAccount, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+integratorColumns+` FROM integrators WHERE parent_integrator_id = $1 ORDER BY id`, parent)
	list, err := pgx.CollectRows(rows, scanIntegrator)
	if err != nil {
		return nil, fmt.Errorf("storage: list sub-accounts: %w", err)
	}
	out := make([]SubAccount, len(list))
	for i, in := range list {
		out[i].Integrator = in
		if out[i].Wallet, err = db.Wallet(ctx, in.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SubAccountOf returns parent's sub-account id with its balances;
// ErrNotFound when id is not one of parent's sub-accounts.
func (db *DB) SubAccountOf(ctx context.Context, parent, id int64) (SubAccount, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+integratorColumns+` FROM integrators WHERE id = $1 AND parent_integrator_id = $2`, id, parent)
	in, err := pgx.CollectExactlyOneRow(rows, scanIntegrator)
	if err != nil {
		return SubAccount{}, notFound(err)
	}
	w, err := db.Wallet(ctx, id)
	return SubAccount{Integrator: in, Wallet: w}, err
}

// ForeignSubAccounts returns those of ids that are not parent's
// sub-accounts (unknown, another integrator's, or parent itself).
func (db *DB) ForeignSubAccounts(ctx context.Context, parent int64, ids []int64) ([]int64, error) {
	rows, _ := db.pool.Query(ctx, `SELECT x FROM unnest($2::bigint[]) AS x
		WHERE NOT EXISTS (SELECT FROM integrators WHERE id = x AND parent_integrator_id = $1)`, parent, ids)
	foreign, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("storage: check sub-accounts: %w", err)
	}
	return foreign, nil
}
