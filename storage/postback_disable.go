package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// DisabledEndpoint is an endpoint DisableFailingEndpoints set DISABLED,
// and since when every delivery to it has failed.
type DisabledEndpoint struct {
	WebhookEndpoint
	FailingSince time.Time
}

// disableFailingSQL finds the ACTIVE endpoints that have postbacks waiting
// (the partial index of PENDING postbacks: few rows, none for an endpoint
// with nothing to deliver) and, for each, when its failing began: the
// first attempt after its last success, or after its resume when that is
// later (a resume gives the endpoint a whole new period). Those failing
// since before $1 are DISABLED, each with its reason. An endpoint with no
// postback waiting is left alone: nothing would be delivered to it, and
// its next postback's failed attempt makes it a candidate again.
const disableFailingSQL = `WITH cand AS (
  SELECT DISTINCT integrator_id, url FROM postbacks WHERE status = 'PENDING'
), failing AS (
  SELECT c.integrator_id, c.url, f.since FROM cand c
  LEFT JOIN webhook_endpoints e ON e.integrator_id = c.integrator_id AND e.url = c.url
  CROSS JOIN LATERAL (SELECT max(a.created_at) AS at FROM postback_attempts a JOIN postbacks p ON p.id = a.postback_id
    WHERE p.integrator_id = c.integrator_id AND p.url = c.url AND a.status_code BETWEEN 200 AND 299) ok
  CROSS JOIN LATERAL (SELECT min(a.created_at) AS since FROM postback_attempts a JOIN postbacks p ON p.id = a.postback_id
    WHERE p.integrator_id = c.integrator_id AND p.url = c.url
    AND a.created_at > greatest(ok.at, e.changed_at, '-infinity'::timestamptz)) f
  WHERE coalesce(e.status, 'ACTIVE') = 'ACTIVE' AND f.since < $1
  ORDER BY f.since LIMIT $2
)
INSERT INTO webhook_endpoints AS w (integrator_id, url, status, reason)
SELECT integrator_id, url, 'DISABLED',
  'failing since ' || to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ': every delivery failed'
FROM failing
ON CONFLICT (integrator_id, url) DO UPDATE SET status = 'DISABLED', reason = excluded.reason, changed_at = now()
  WHERE w.status = 'ACTIVE'
RETURNING w.integrator_id, w.url, w.status, w.reason, w.changed_at,
  (SELECT since FROM failing WHERE failing.integrator_id = w.integrator_id AND failing.url = w.url)`

// DisableFailingEndpoints sets DISABLED, at most limit at a time, the
// endpoints whose every delivery has failed since before failingBefore.
// Their postbacks then wait PENDING, as a paused endpoint's do, until a
// resume; an endpoint paused meanwhile stays paused.
func (db *DB) DisableFailingEndpoints(ctx context.Context, failingBefore time.Time, limit int) ([]DisabledEndpoint, error) {
	rows, _ := db.pool.Query(ctx, disableFailingSQL, failingBefore, limit)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DisabledEndpoint, error) {
		var d DisabledEndpoint
		err := r.Scan(&d.IntegratorID, &d.URL, &d.Status, &d.Reason, &d.ChangedAt, &d.FailingSince)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: disable failing endpoints: %w", err)
	}
	return list, nil
}
