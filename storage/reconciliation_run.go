package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// ErrReconBusy: another run of the same provider and day holds it.
var ErrReconBusy = errors.New("storage: this day of this provider is being reconciled by another run")

// RunReconciliation reconciles one provider's day: it streams src into a
// temporary table, matches it with PixGate's records there, and replaces
// the day's items with what it found (keeping the resolution of an item it
// finds again), all in one transaction, so a rerun replaces the day's
// result whole or not at all. Runs of the same day wait for each other.
// A run that fails is recorded as failed, with its error.
func (db *DB) RunReconciliation(ctx context.Context, spec ReconSpec, src StatementSource) (ReconRun, error) {
	if spec.Now.IsZero() {
		spec.Now = time.Now()
	}
	started := spec.Now
	var runID int64
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var got bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtext('reconciliation'), hashtext($1 || ' ' || $2))`,
			spec.Provider, spec.Day).Scan(&got); err != nil {
			return err
		}
		if !got {
			return ErrReconBusy
		}
		args := reconArgs(spec)
		if _, err := tx.Exec(ctx, reconTempTablesSQL); err != nil {
			return fmt.Errorf("storage: reconciliation tables: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"recon_lines"}, reconLinesColumns, &lineCopier{src: src}); err != nil {
			return fmt.Errorf("storage: copy the statement: %w", err)
		}
		if err := src.Err(); err != nil {
			return err
		}
		if opening, closing, ok := src.Balances(); ok {
			args["opening"], args["closing"] = opening, closing
		}
		for _, step := range []struct{ name, sql string }{
			{"records", reconOursSQL()}, {"match", reconMatchSQL}, {"find", reconFindSQL()},
			{"occurrences", reconOccurrenceSQL}, {"line items", reconLineItemsSQL}, {"record items", reconRecordItemsSQL},
		} {
			if err := execAll(ctx, tx, step.sql, args); err != nil {
				return fmt.Errorf("storage: reconciliation %s: %w", step.name, err)
			}
		}
		var err error
		runID, err = recordRun(ctx, tx, spec, args, started)
		return err
	})
	if err != nil {
		if !errors.Is(err, ErrReconBusy) {
			db.recordFailedRun(spec, started, err)
		}
		return ReconRun{}, err
	}
	return db.ReconciliationRun(ctx, runID)
}

// reconArgs are the named arguments of the run's SQL.
func reconArgs(spec ReconSpec) pgx.NamedArgs {
	return pgx.NamedArgs{
		"provider": spec.Provider, "day": spec.Day, "start": spec.Start, "end": spec.End,
		"lo": spec.Start.Add(-spec.Boundary), "hi": spec.End.Add(spec.Boundary), "boundary": spec.Boundary,
		"now": spec.Now, "grace": spec.GraceUntil, "trigger": spec.Trigger, "opening": nil, "closing": nil,
	}
}

// recordRun writes the run, merges its items into the day's and computes
// the day's figures.
func recordRun(ctx context.Context, tx pgx.Tx, spec ReconSpec, args pgx.NamedArgs, started time.Time) (int64, error) {
	var lines, records, matched int64
	var linesNet, recordsNet money.Money
	if err := tx.QueryRow(ctx, reconCountsSQL, args).Scan(&lines, &records, &matched, &linesNet, &recordsNet); err != nil {
		return 0, fmt.Errorf("storage: reconciliation counts: %w", err)
	}
	args["lines"], args["records"], args["matched"], args["lines_net"], args["records_net"] = lines, records, matched, linesNet, recordsNet
	args["started"] = started
	var runID int64
	if err := tx.QueryRow(ctx, `INSERT INTO reconciliation_runs (provider, day, trigger, status, started_at, finished_at, grace_until,
			lines, records, matched, expected, exceptions, opening_balance, closing_balance, lines_net)
		SELECT @provider::text, @day::date, @trigger::text, 'done', @started::timestamptz, clock_timestamp(), @grace::timestamptz,
			@lines::bigint, @records::bigint, @matched::bigint,
			count(*) FILTER (WHERE kind = 'expected'), count(*) FILTER (WHERE kind NOT IN ('expected', 'matched')),
			@opening::bigint, @closing::bigint, @lines_net::bigint
		FROM recon_new RETURNING id`, args).Scan(&runID); err != nil {
		return 0, fmt.Errorf("storage: record the reconciliation run: %w", err)
	}
	args["run"] = runID
	for _, step := range []struct{ name, sql string }{
		{"drop items", reconDropItemsSQL}, {"refresh items", reconRefreshItemsSQL}, {"add items", reconAddItemsSQL},
		{"figures", reconFiguresSQL()}, {"day", reconDaySQL},
	} {
		if err := execAll(ctx, tx, step.sql, args); err != nil {
			return 0, fmt.Errorf("storage: reconciliation %s: %w", step.name, err)
		}
	}
	return runID, nil
}

// execAll runs each statement of sql (separated by semicolons; none of
// PixGate's reconciliation SQL has one inside a statement) with args.
func execAll(ctx context.Context, tx pgx.Tx, sql string, args pgx.NamedArgs) error {
	for _, stmt := range strings.Split(sql, ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := tx.Exec(ctx, stmt, args); err != nil {
			return err
		}
	}
	return nil
}

// recordFailedRun keeps a run that failed, on its own, after its
// transaction was rolled back; the failure is the caller's to report, so a
// failure to record it is only lost.
func (db *DB) recordFailedRun(spec ReconSpec, started time.Time, cause error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = db.pool.Exec(ctx, `INSERT INTO reconciliation_runs (provider, day, trigger, status, error, started_at, grace_until)
		VALUES ($1, $2, $3, 'failed', $4, $5, $6)`, spec.Provider, spec.Day, spec.Trigger, truncateText(cause.Error(), 2000),
		started, spec.GraceUntil)
}

func truncateText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// lineCopier feeds a statement to COPY, numbering its lines.
type lineCopier struct {
	src StatementSource
	n   int64
}

func (c *lineCopier) Next() bool { return c.src.Next() }

func (c *lineCopier) Values() ([]any, error) {
	l := c.src.Line()
	c.n++
	var settled any
	if !l.SettledAt.IsZero() {
		settled = l.SettledAt
	}
	return []any{c.n, l.Kind, int16(l.Direction), l.ProviderID, l.ExternalID, l.RecordID, l.EndToEndID,
		int64(l.Amount), int64(l.Fee), l.Status, settled}, nil
}

func (c *lineCopier) Err() error { return c.src.Err() }
