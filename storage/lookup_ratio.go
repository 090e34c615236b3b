package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// MaxLookupRatio is the central bank's guidance on key lookups: about
// twice the payments at most (a DICT read per PIX sent, and some to
// spare). A ratio above it is flagged.
const MaxLookupRatio = 2

// CountKeyLookup adds lookups and misses to the integrator's count of the
// day (America/Sao_Paulo), one statement: the source of the lookup-to-
// payment ratio (LookupRatios). A lookup is one the DICT answered; a miss,
// an answer that the key does not exist or is another's.
func (db *DB) CountKeyLookup(ctx context.Context, integratorID int64, lookups, misses int) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO key_lookup_days (integrator_id, day, lookups, misses)
		VALUES ($1, (now() AT TIME ZONE 'America/Sao_Paulo')::date, $2, $3)
		ON CONFLICT (integrator_id, day) DO UPDATE
		SET lookups = key_lookup_days.lookups + EXCLUDED.lookups, misses = key_lookup_days.misses + EXCLUDED.misses`,
		integratorID, lookups, misses)
	if err != nil {
		return fmt.Errorf("storage: count a key lookup: %w", err)
	}
	return nil
}

// LookupRatio is an integrator's key lookups, misses and payments
// (withdrawals created) over some days.
type LookupRatio struct {
	IntegratorID              int64
	Lookups, Misses, Payments int64
}

// Ratio is lookups per payment; ok is false without payments.
func (r LookupRatio) Ratio() (ratio float64, ok bool) {
	if r.Payments == 0 {
		return 0, false
	}
	return float64(r.Lookups) / float64(r.Payments), true
}

// Flagged: more than MaxLookupRatio lookups per payment (any lookup
// without a payment).
func (r LookupRatio) Flagged() bool { return r.Lookups > MaxLookupRatio*r.Payments }

// LookupRatios reports, by integrator (one when integratorID is not 0),
// the lookups and misses counted on the days from the day of from
// (America/Sao_Paulo) to today, and the withdrawals created since from.
func (db *DB) LookupRatios(ctx context.Context, integratorID int64, from time.Time) ([]LookupRatio, error) {
	day := from.In(saoPaulo).Format(time.DateOnly)
	rows, _ := db.pool.Query(ctx, `WITH l AS (
			SELECT integrator_id, sum(lookups) AS lookups, sum(misses) AS misses FROM key_lookup_days
			WHERE day >= $1::date AND ($3::bigint = 0 OR integrator_id = $3::bigint) GROUP BY integrator_id
		), p AS (
			SELECT integrator_id, count(*) AS n FROM withdrawals
			WHERE id >= $2::uuid AND ($3::bigint = 0 OR integrator_id = $3::bigint) GROUP BY integrator_id
		)
		SELECT coalesce(l.integrator_id, p.integrator_id), coalesce(l.lookups, 0)::bigint, coalesce(l.misses, 0)::bigint, coalesce(p.n, 0)
		FROM l FULL JOIN p ON p.integrator_id = l.integrator_id ORDER BY 1`, day, idFloor(from), integratorID)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (LookupRatio, error) {
		var x LookupRatio
		err := r.Scan(&x.IntegratorID, &x.Lookups, &x.Misses, &x.Payments)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: lookup ratios: %w", err)
	}
	return out, nil
}

// SaoPauloMidnight is the start of t's day in America/Sao_Paulo.
func SaoPauloMidnight(t time.Time) time.Time {
	y, m, d := t.In(saoPaulo).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, saoPaulo)
}
