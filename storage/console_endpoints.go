package storage

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// The operators' console lists every integrator's postback endpoints and
// records its pause and resume as operator actions.

// endpointNamespace derives an endpoint's resource id: an endpoint is
// (integrator, URL), with no id of its own, and operator actions name a
// UUID. A fixed name-based UUID (version 5) of the pair is one.
var endpointNamespace = uuid.MustParse("6f1d8f0a-5c1e-4b7e-9a51-3c0f4e2d7b10")

// EndpointResourceID is the resource id an endpoint's operator actions are
// recorded under: the same for the same integrator and URL, always.
func EndpointResourceID(integratorID int64, url string) uuid.UUID {
	return uuid.NewSHA1(endpointNamespace, []byte(strconv.FormatInt(integratorID, 10)+"\n"+url))
}

// AllEndpoints lists the endpoints with a state of their own (paused,
// disabled, resumed), then those postbacks were written to since and that
// never had one (ACTIVE), by integrator and URL. The postbacks are read
// from their ids (UUIDv7) on, so the scan is bounded by since.
func (db *DB) AllEndpoints(ctx context.Context, since time.Time, limit int) ([]WebhookEndpoint, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+endpointColumns+` FROM (
			SELECT `+endpointColumns+` FROM webhook_endpoints
			UNION ALL
			SELECT integrator_id, url, 'ACTIVE', NULL::text, min(created_at) FROM postbacks p
			WHERE id >= $1 AND NOT EXISTS (SELECT FROM webhook_endpoints e WHERE e.integrator_id = p.integrator_id AND e.url = p.url)
			GROUP BY integrator_id, url
		) e ORDER BY status = 'ACTIVE', integrator_id, url LIMIT $2`, idFloor(since), limit)
	list, err := pgx.CollectRows(rows, scanEndpoint)
	if err != nil {
		return nil, fmt.Errorf("storage: all endpoints: %w", err)
	}
	return list, nil
}

// RecordOperatorAction records an action that moved no money and changed
// nothing this transaction could hold (an endpoint paused or resumed, each
// of which is done and safe to repeat before its record is written).
func (db *DB) RecordOperatorAction(ctx context.Context, a OperatorAction) (stored OperatorAction, err error) {
	err = db.InTx(ctx, func(tx *Tx) error {
		stored, err = tx.RecordOperatorAction(ctx, a)
		return err
	})
	return stored, err
}
