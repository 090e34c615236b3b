package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ReconciliationDays is the standing run of the latest reconciled days,
// every provider's, newest first and at most limit; a day with an open
// exception comes before the others whatever its age, so an operator's
// list never hides what is left to decide.
func (db *DB) ReconciliationDays(ctx context.Context, limit int) ([]ReconRun, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+reconRunColumns+` FROM reconciliation_days d
		JOIN reconciliation_runs r ON r.id = d.run_id
		ORDER BY EXISTS (SELECT 1 FROM reconciliation_items i WHERE i.provider = d.provider AND i.day = d.day AND i.status = 'open') DESC,
			d.day DESC, d.provider
		LIMIT $1`, limit)
	runs, err := pgx.CollectRows(rows, scanReconRun)
	if err != nil {
		return nil, fmt.Errorf("storage: reconciliation days: %w", err)
	}
	return runs, nil
}
