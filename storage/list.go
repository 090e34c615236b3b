package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// ListParams select a page of an integrator's records, newest first. Ids
// are UUIDv7, so "newest first" is id order and a page continues strictly
// after the last id of the previous one (keyset pagination: stable while new
// records arrive, and as fast on page 1000 as on page 1).
type ListParams struct {
	IntegratorID int64
	Status       string     // empty: every status
	After        *uuid.UUID // the last id of the previous page
	Limit        int
	// ChargeID, in a list of refunds, keeps one charge's refunds.
	ChargeID *uuid.UUID
	// BatchID, in a list of withdrawals, keeps one batch's items.
	BatchID *uuid.UUID
}

// ListCharges returns one page of charges and whether more follow.
func (db *DB) ListCharges(ctx context.Context, p ListParams) ([]Charge, bool, error) {
	return list(ctx, db, `SELECT `+chargeColumns+` FROM charges`, scanCharge, p)
}

func list[T any](ctx context.Context, db *DB, selectSQL string, scan pgx.RowToFunc[T], p ListParams) ([]T, bool, error) {
	if p.Limit <= 0 {
		return nil, false, fmt.Errorf("storage: list limit must be positive")
	}
	// The WHERE clause is built rather than written with "$n IS NULL OR"
	// guards, so each shape gets a plan that uses its index.
	where, args := `integrator_id = $1`, []any{p.IntegratorID}
	if p.Status != "" {
		args = append(args, p.Status)
		where += fmt.Sprintf(` AND status = $%d`, len(args))
	}
	if p.After != nil {
		args = append(args, *p.After)
		where += fmt.Sprintf(` AND id < $%d`, len(args))
	}
	if p.ChargeID != nil {
		args = append(args, *p.ChargeID)
		where += fmt.Sprintf(` AND charge_id = $%d`, len(args))
	}
	if p.BatchID != nil {
		args = append(args, *p.BatchID)
		where += fmt.Sprintf(` AND batch_id = $%d`, len(args))
	}
	args = append(args, p.Limit+1)
	rows, _ := db.pool.Query(ctx, fmt.Sprintf(`%s WHERE %s ORDER BY id DESC LIMIT $%d`, selectSQL, where, len(args)), args...)
	items, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, false, fmt.Errorf("storage: list: %w", err)
	}
	more := len(items) > p.Limit
	if more {
		items = items[:p.Limit]
	}
	return items, more, nil
}
