package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// EndpointSummary is an endpoint as its integrator sees it: its state and
// how its deliveries go.
type EndpointSummary struct {
	URL    string
	Status string // ACTIVE, PAUSED or DISABLED
	Reason *string
	// ChangedAt is when the status last changed; nil for an endpoint never
	// paused nor disabled.
	ChangedAt *time.Time
	// LastSuccessAt is the last attempt answered 2xx; nil when none was.
	LastSuccessAt *time.Time
	// FailuresInARow counts the attempts that failed since the last success.
	FailuresInARow int
	// Waiting counts the postbacks still PENDING.
	Waiting int
}

// endpointSummarySQL lists every URL an integrator's postbacks went to,
// and those with a state of their own. The attempts read are those of
// one endpoint since its last success: a healthy endpoint costs few.
const endpointSummarySQL = `WITH urls AS (
  SELECT DISTINCT url FROM postbacks WHERE integrator_id = $1
  UNION SELECT url FROM webhook_endpoints WHERE integrator_id = $1
)
SELECT u.url, coalesce(e.status, 'ACTIVE'), e.reason, e.changed_at, ok.at,
  (SELECT count(*) FROM postback_attempts a JOIN postbacks p ON p.id = a.postback_id
    WHERE p.integrator_id = $1 AND p.url = u.url AND a.created_at > coalesce(ok.at, '-infinity')
    AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)),
  (SELECT count(*) FROM postbacks p WHERE p.integrator_id = $1 AND p.url = u.url AND p.status = 'PENDING')
FROM urls u
LEFT JOIN webhook_endpoints e ON e.integrator_id = $1 AND e.url = u.url
LEFT JOIN LATERAL (SELECT max(a.created_at) AS at FROM postback_attempts a JOIN postbacks p ON p.id = a.postback_id
  WHERE p.integrator_id = $1 AND p.url = u.url AND a.status_code BETWEEN 200 AND 299) ok ON true
ORDER BY u.url`

// EndpointSummaries returns every endpoint of an integrator, by URL.
func (db *DB) EndpointSummaries(ctx context.Context, integratorID int64) ([]EndpointSummary, error) {
	rows, _ := db.pool.Query(ctx, endpointSummarySQL, integratorID)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (EndpointSummary, error) {
		var s EndpointSummary
		err := r.Scan(&s.URL, &s.Status, &s.Reason, &s.ChangedAt, &s.LastSuccessAt, &s.FailuresInARow, &s.Waiting)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: endpoint summaries: %w", err)
	}
	return list, nil
}
