package storage

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// findByRef returns the one row of selectSQL (which filters on integrator_id
// = $1) whose id or external_id is ref. A ref that parses as a UUID is tried
// as the id first, then as an external_id: integrators may use UUIDs as
// their own references.
func findByRef[T any](ctx context.Context, q ledger.Querier, selectSQL string, scan pgx.RowToFunc[T], integratorID int64, ref string) (T, error) {
	if id, err := uuid.Parse(ref); err == nil && len(ref) == 36 {
		rows, _ := q.Query(ctx, selectSQL+` AND id = $2`, integratorID, id)
		v, err := pgx.CollectExactlyOneRow(rows, scan)
		if !errors.Is(err, pgx.ErrNoRows) {
			return v, err
		}
	}
	rows, _ := q.Query(ctx, selectSQL+` AND external_id = $2`, integratorID, ref)
	v, err := pgx.CollectExactlyOneRow(rows, scan)
	return v, notFound(err)
}
