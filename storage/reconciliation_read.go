package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ErrNoReconciliation: the provider's day was never reconciled.
var ErrNoReconciliation = errors.New("storage: this day of this provider has not been reconciled")

const reconRunColumns = `r.id, r.provider, r.day::text, r.trigger, r.status, r.error, r.started_at, r.finished_at, r.grace_until,
	r.lines, r.records, r.matched, r.expected, r.exceptions, r.opening_balance, r.closing_balance, r.lines_net, r.float_net,
	r.float_at_close, r.day_difference, r.explained, r.unexplained, r.closing_difference,
	coalesce(d.status, ''), (SELECT count(*) FROM reconciliation_items i WHERE i.provider = r.provider AND i.day = r.day AND i.status = 'open')`

func scanReconRun(row pgx.CollectableRow) (ReconRun, error) {
	var r ReconRun
	err := row.Scan(&r.ID, &r.Provider, &r.Day, &r.Trigger, &r.Status, &r.Error, &r.StartedAt, &r.FinishedAt, &r.GraceUntil,
		&r.Lines, &r.Records, &r.Matched, &r.Expected, &r.Exceptions, &r.OpeningBalance, &r.ClosingBalance, &r.LinesNet, &r.FloatNet,
		&r.FloatAtClose, &r.DayDifference, &r.Explained, &r.Unexplained, &r.ClosingDifference, &r.DayStatus, &r.OpenExceptions)
	return r, err
}

// ReconciliationRun reads a run, with the day's items counted by kind as
// they stand (resolved ones included).
func (db *DB) ReconciliationRun(ctx context.Context, id int64) (ReconRun, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+reconRunColumns+` FROM reconciliation_runs r
		LEFT JOIN reconciliation_days d ON d.provider = r.provider AND d.day = r.day WHERE r.id = $1`, id)
	r, err := pgx.CollectExactlyOneRow(rows, scanReconRun)
	if errors.Is(err, pgx.ErrNoRows) {
		return ReconRun{}, ErrNoReconciliation
	}
	if err != nil {
		return ReconRun{}, fmt.Errorf("storage: read reconciliation run %d: %w", id, err)
	}
	r.ByKind = map[ReconKind]int64{ReconMatched: r.Matched}
	kinds, _ := db.pool.Query(ctx, `SELECT kind, count(*) FROM reconciliation_items
		WHERE provider = $1 AND day = $2::date AND run_id = $3 AND kind <> 'matched' GROUP BY kind`, r.Provider, r.Day, r.ID)
	var kind string
	var n int64
	_, err = pgx.ForEachRow(kinds, []any{&kind, &n}, func() error {
		r.ByKind[ReconKind(kind)] = n
		return nil
	})
	return r, err
}

// LatestReconciliation is the run that stands for a provider's day: the
// day's result (a failed rerun leaves the last good one standing), else
// its latest run, failed.
func (db *DB) LatestReconciliation(ctx context.Context, provider, day string) (ReconRun, error) {
	var id int64
	err := db.pool.QueryRow(ctx, `SELECT coalesce(
			(SELECT run_id FROM reconciliation_days WHERE provider = $1 AND day = $2::date),
			(SELECT max(id) FROM reconciliation_runs WHERE provider = $1 AND day = $2::date))`, provider, day).Scan(&id)
	if err != nil {
		return ReconRun{}, ErrNoReconciliation
	}
	return db.ReconciliationRun(ctx, id)
}

const reconItemColumns = `id, provider, day::text, item_key, run_id, kind, expected_kind, status,
	line_kind, line_provider_id, line_external_id, line_end_to_end_id, line_amount, line_fee, line_status, line_settled_at,
	record_kind, record_id, record_amount, record_status, record_settled_at, delta, adjusted, adjustment_id,
	resolved_at, resolved_by, resolution`

func scanReconItem(row pgx.CollectableRow) (ReconItem, error) {
	var i ReconItem
	err := row.Scan(&i.ID, &i.Provider, &i.Day, &i.Key, &i.RunID, &i.Kind, &i.ExpectedKind, &i.Status,
		&i.LineKind, &i.LineProviderID, &i.LineExternalID, &i.LineEndToEndID, &i.LineAmount, &i.LineFee, &i.LineStatus, &i.LineSettledAt,
		&i.RecordKind, &i.RecordID, &i.RecordAmount, &i.RecordStatus, &i.RecordSettledAt, &i.Delta, &i.Adjusted, &i.AdjustmentID,
		&i.ResolvedAt, &i.ResolvedBy, &i.Resolution)
	return i, err
}

// ReconciliationItems passes each item of a provider's day to each,
// exceptions first, one row at a time.
func (db *DB) ReconciliationItems(ctx context.Context, provider, day string, each func(ReconItem) error) error {
	rows, _ := db.pool.Query(ctx, `SELECT `+reconItemColumns+` FROM reconciliation_items
		WHERE provider = $1 AND day = $2::date
		ORDER BY CASE status WHEN 'open' THEN 0 WHEN 'resolved' THEN 1 ELSE 2 END, kind, item_key`, provider, day)
	defer rows.Close()
	for rows.Next() {
		it, err := scanReconItem(rows)
		if err != nil {
			return err
		}
		if err := each(it); err != nil {
			return err
		}
	}
	return rows.Err()
}

// OpenReconExceptions counts the open exceptions by provider and kind.
func (db *DB) OpenReconExceptions(ctx context.Context) (map[string]map[ReconKind]int64, error) {
	rows, _ := db.pool.Query(ctx, `SELECT provider, kind, count(*) FROM reconciliation_items WHERE status = 'open' GROUP BY 1, 2`)
	out := map[string]map[ReconKind]int64{}
	var provider, kind string
	var n int64
	_, err := pgx.ForEachRow(rows, []any{&provider, &kind, &n}, func() error {
		if out[provider] == nil {
			out[provider] = map[ReconKind]int64{}
		}
		out[provider][ReconKind(kind)] = n
		return nil
	})
	return out, err
}
