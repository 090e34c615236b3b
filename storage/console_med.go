package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// The operators' console reads MED across integrators: the infractions
// still open, and the debts agreed returns left, read only.

// OpenMED is an open infraction with its integrator's name.
type OpenMED struct {
	Integrator string
	Infraction
}

// OpenInfractions lists the open infractions of every integrator, the one
// whose analysis is due first first (those with no due day last). Open
// infractions are few (each closes within the BCB's days), so the sort of
// all of them is cheap. updated_at IS NOT NULL (always true: the column
// is NOT NULL) lets the planner use the partial index on open ones, whose
// predicate says it.
func (db *DB) OpenInfractions(ctx context.Context, limit int) ([]OpenMED, error) {
	rows, _ := db.pool.Query(ctx, `SELECT coalesce((SELECT g.name FROM integrators g WHERE g.id = infractions.integrator_id), ''),
		`+infractionColumns+` FROM infractions WHERE status = 'OPEN' AND updated_at IS NOT NULL
		ORDER BY due_at NULLS LAST, created_at, id LIMIT $1`, limit)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (OpenMED, error) {
		var o OpenMED
		i, err := scanInfraction(prefixed{r, &o.Integrator}) // the integrator's name first
		o.Infraction = i
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: open infractions: %w", err)
	}
	return list, nil
}

// IntegratorDebt is what one integrator owes the platform: the balance of
// its debt account, made positive (MED returns beyond what their
// infractions could block, not yet recovered from its cash-ins).
type IntegratorDebt struct {
	IntegratorID int64
	Integrator   string
	Debt         money.Money
}

// IntegratorDebts lists the integrators that owe something, the largest
// debt first.
func (db *DB) IntegratorDebts(ctx context.Context, limit int) ([]IntegratorDebt, error) {
	rows, _ := db.pool.Query(ctx, `SELECT a.integrator_id, g.name, -a.balance FROM ledger_accounts a
		JOIN integrators g ON g.id = a.integrator_id
		WHERE a.integrator_id IS NOT NULL AND a.kind = 'debt' AND a.balance < 0
		ORDER BY a.balance, a.integrator_id LIMIT $1`, limit)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[IntegratorDebt])
	if err != nil {
		return nil, fmt.Errorf("storage: integrator debts: %w", err)
	}
	return list, nil
}
