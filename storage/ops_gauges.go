package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// The figures operators' dashboards and alerts read (deploy/grafana,
// deploy/prometheus): each is one query, cheap enough to run every few
// seconds on every worker, each bounded by an index or a recent window of
// time-ordered ids.

// ReconClose is a provider's last reconciled day, as its latest run
// closed it: what the provider reported holding, and the two differences
// of docs/reconciliation.md. Each is nil when the provider's statement
// reports no balance.
type ReconClose struct {
	Day               time.Time
	Closing           *money.Money
	ClosingDifference *money.Money
	Unexplained       *money.Money
}

// LastReconCloses is each provider's latest day with a finished run.
func (db *DB) LastReconCloses(ctx context.Context) (map[string]ReconClose, error) {
	rows, _ := db.pool.Query(ctx, `SELECT DISTINCT ON (provider) provider, day, closing_balance, closing_difference, unexplained
		FROM reconciliation_runs WHERE status = 'done' ORDER BY provider, day DESC, id DESC`)
	out := map[string]ReconClose{}
	var (
		name string
		c    ReconClose
	)
	_, err := pgx.ForEachRow(rows, []any{&name, &c.Day, &c.Closing, &c.ClosingDifference, &c.Unexplained}, func() error {
		out[name] = c
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: last reconciliation closes: %w", err)
	}
	return out, nil
}

// MEDExposure is what MED holds across integrators: the money blocked
// under open infractions, the debts agreed returns left, and the open
// infractions by the provider that holds their charge.
type MEDExposure struct {
	Blocked, Debt money.Money
	Debtors       int64
	Open          map[string]int64
}

// MEDExposure reads the blocked and debt accounts and the open
// infractions.
func (db *DB) MEDExposure(ctx context.Context) (MEDExposure, error) {
	e := MEDExposure{Open: map[string]int64{}}
	err := db.pool.QueryRow(ctx, `SELECT coalesce(sum(balance) FILTER (WHERE kind = 'blocked'), 0),
			-coalesce(sum(balance) FILTER (WHERE kind = 'debt'), 0), count(*) FILTER (WHERE kind = 'debt' AND balance < 0)
		FROM ledger_accounts WHERE integrator_id IS NOT NULL AND kind IN ('blocked', 'debt')`).Scan(&e.Blocked, &e.Debt, &e.Debtors)
	if err != nil {
		return e, fmt.Errorf("storage: MED balances: %w", err)
	}
	rows, _ := db.pool.Query(ctx, `SELECT c.provider, count(*) FROM infractions i JOIN charges c ON c.id = i.charge_id
		WHERE i.status = 'OPEN' GROUP BY c.provider`)
	var (
		provider string
		n        int64
	)
	_, err = pgx.ForEachRow(rows, []any{&provider, &n}, func() error {
		e.Open[provider] = n
		return nil
	})
	if err != nil {
		return e, fmt.Errorf("storage: open infractions: %w", err)
	}
	return e, nil
}

// OldestOpenReconExceptions is, per provider with any, when its oldest
// open reconciliation exception was first found (a rerun that finds it
// again keeps that time).
func (db *DB) OldestOpenReconExceptions(ctx context.Context) (map[string]time.Time, error) {
	rows, _ := db.pool.Query(ctx, `SELECT provider, min(created_at) FROM reconciliation_items WHERE status = 'open' GROUP BY provider`)
	out := map[string]time.Time{}
	var (
		provider string
		at       time.Time
	)
	_, err := pgx.ForEachRow(rows, []any{&provider, &at}, func() error {
		out[provider] = at
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: oldest open reconciliation exceptions: %w", err)
	}
	return out, nil
}

// Lags are the median, 95th and 99th percentile of a latency in seconds
// over a window, and how many records it saw.
type Lags struct {
	P50, P95, P99 float64
	Count         int64
}

// lagsSQL turns a query of (provider, seconds) rows into Lags per provider.
const lagsSQL = `SELECT provider, percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY secs), count(*) FROM (%s) l GROUP BY provider`

// CreditLags is, per provider, how long charges paid since took from the
// payment at the provider (paid_at, the provider's time) to the credit in
// PixGate's ledger (the charge.paid posting).
func (db *DB) CreditLags(ctx context.Context, since time.Time) (map[string]Lags, error) {
	return db.lags(ctx, "credit", `SELECT c.provider, greatest(extract(epoch FROM t.created_at - c.paid_at), 0)::float8 AS secs
		FROM charges c JOIN ledger_transactions t ON t.reference = 'charge:' || c.id::text || ':paid'
		WHERE c.paid_at >= $1`, since)
}

// WithdrawalPostbackLags is, per provider, how long withdrawals took from
// their creation to the first delivery of their final postback, for
// postbacks written since (postback ids are UUIDv7: the window is a range
// of the primary key).
func (db *DB) WithdrawalPostbackLags(ctx context.Context, since time.Time) (map[string]Lags, error) {
	return db.lags(ctx, "withdrawal postback", `SELECT w.provider, greatest(extract(epoch FROM p.delivered_at - w.created_at), 0)::float8 AS secs
		FROM postbacks p JOIN withdrawals w ON w.id = p.resource_id
		WHERE p.id >= $1 AND p.resource_type = 'withdrawal' AND p.delivered_at IS NOT NULL`, idFloor(since))
}

func (db *DB) lags(ctx context.Context, what, query string, arg any) (map[string]Lags, error) {
	rows, _ := db.pool.Query(ctx, fmt.Sprintf(lagsSQL, query), arg)
	out := map[string]Lags{}
	var (
		provider string
		q        []float64
		n        int64
	)
	_, err := pgx.ForEachRow(rows, []any{&provider, &q, &n}, func() error {
		if len(q) == 3 {
			out[provider] = Lags{P50: q[0], P95: q[1], P99: q[2], Count: n}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: %s lags: %w", what, err)
	}
	return out, nil
}

// RecentPostbacks counts the postbacks written since, per integrator id
// and state: delivered, failed, stopped, and a PENDING one retrying once
// an attempt failed, waiting before. A failure rate per integrator is
// computed from them.
func (db *DB) RecentPostbacks(ctx context.Context, since time.Time) (map[string]map[string]int64, error) {
	rows, _ := db.pool.Query(ctx, `SELECT integrator_id, CASE status WHEN 'PENDING' THEN
			CASE WHEN attempts > 0 THEN 'retrying' ELSE 'waiting' END ELSE lower(status) END, count(*)
		FROM postbacks WHERE id >= $1 GROUP BY 1, 2`, idFloor(since))
	out := map[string]map[string]int64{}
	var (
		integrator int64
		state      string
		n          int64
	)
	_, err := pgx.ForEachRow(rows, []any{&integrator, &state, &n}, func() error {
		id := strconv.FormatInt(integrator, 10)
		if out[id] == nil {
			out[id] = map[string]int64{}
		}
		out[id][state] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: recent postbacks: %w", err)
	}
	return out, nil
}

// idFloor is the smallest UUIDv7 of t's millisecond: every record id made
// at t or later sorts at or above it.
func idFloor(t time.Time) uuid.UUID {
	var id uuid.UUID
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(max(t.UnixMilli(), 0)))
	copy(id[:6], ms[2:])
	return id
}
