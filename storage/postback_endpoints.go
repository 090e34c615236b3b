package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Endpoint statuses. An endpoint is an integrator's postback URL; one
// without a row in webhook_endpoints is ACTIVE.
const (
	EndpointActive   = "ACTIVE"   // its postbacks are delivered
	EndpointPaused   = "PAUSED"   // held by its integrator or an operator: its postbacks wait
	EndpointDisabled = "DISABLED" // held by PixGate, failing for days: its postbacks wait
)

// WebhookEndpoint is an endpoint's state.
type WebhookEndpoint struct {
	IntegratorID int64
	URL          string
	Status       string
	Reason       *string
	ChangedAt    time.Time
}

const endpointColumns = `integrator_id, url, status, reason, changed_at`

func scanEndpoint(r pgx.CollectableRow) (WebhookEndpoint, error) {
	var e WebhookEndpoint
	err := r.Scan(&e.IntegratorID, &e.URL, &e.Status, &e.Reason, &e.ChangedAt)
	return e, err
}

// PauseEndpoint holds an endpoint's deliveries: from now on its postbacks
// are not attempted and wait PENDING, their schedule kept. Pausing a
// paused endpoint changes nothing; a disabled one becomes paused (the
// integrator's hold outlives PixGate's). A URL with no postback yet may be
// paused too: its first ones will wait.
func (db *DB) PauseEndpoint(ctx context.Context, integratorID int64, url string) (WebhookEndpoint, error) {
	rows, _ := db.pool.Query(ctx, `INSERT INTO webhook_endpoints (integrator_id, url, status) VALUES ($1, $2, 'PAUSED')
		ON CONFLICT (integrator_id, url) DO UPDATE SET status = 'PAUSED', reason = NULL,
			changed_at = CASE WHEN webhook_endpoints.status = 'PAUSED' THEN webhook_endpoints.changed_at ELSE now() END
		RETURNING `+endpointColumns, integratorID, url)
	e, err := pgx.CollectExactlyOneRow(rows, scanEndpoint)
	if err != nil {
		return WebhookEndpoint{}, fmt.Errorf("storage: pause endpoint: %w", err)
	}
	return e, nil
}

// ResumeEndpoint makes a paused or disabled endpoint ACTIVE again and asks,
// in the same transaction, for the delivery of every postback that waited
// (msg builds each one's outbox message, whose task id must be new). They
// are delivered oldest first: the delivery of an endpoint with a row waits
// while an older postback of it is due (EndpointGate). resumed counts the
// postbacks queued. ErrNotFound: the endpoint was never paused.
func (db *DB) ResumeEndpoint(ctx context.Context, integratorID int64, url string, msg func(Postback) OutboxMessage) (e WebhookEndpoint, resumed int, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `UPDATE webhook_endpoints SET status = 'ACTIVE', reason = NULL,
				changed_at = CASE WHEN status = 'ACTIVE' THEN changed_at ELSE now() END
			WHERE integrator_id = $1 AND url = $2 RETURNING `+endpointColumns, integratorID, url)
		if e, err = pgx.CollectExactlyOneRow(rows, scanEndpoint); err != nil {
			return fmt.Errorf("storage: resume endpoint: %w", notFound(err))
		}
		rows, _ = tx.Query(ctx, `SELECT `+postbackColumns+` FROM postbacks
			WHERE integrator_id = $1 AND url = $2 AND status = 'PENDING' ORDER BY id`, integratorID, url)
		waiting, err := pgx.CollectRows(rows, scanPostback)
		if err != nil {
			return fmt.Errorf("storage: resume endpoint: %w", err)
		}
		msgs := make([]OutboxMessage, len(waiting))
		for i, p := range waiting {
			msgs[i] = msg(p)
		}
		resumed = len(msgs)
		return writeOutbox(ctx, tx, msgs...)
	})
	return e, resumed, err
}

// Endpoints returns an integrator's endpoints that have a state of their
// own (paused, disabled, or resumed), most recently changed first.
func (db *DB) Endpoints(ctx context.Context, integratorID int64) ([]WebhookEndpoint, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE integrator_id = $1
		ORDER BY changed_at DESC, url`, integratorID)
	list, err := pgx.CollectRows(rows, scanEndpoint)
	if err != nil {
		return nil, fmt.Errorf("storage: endpoints: %w", err)
	}
	return list, nil
}

// EndpointGate is what a delivery must do before its attempt.
type EndpointGate int

// Gates.
const (
	GateGo   EndpointGate = iota // attempt it
	GateHold                     // its endpoint is paused or disabled: the postback waits, its task is done
	GateWait                     // an older postback of its resumed endpoint is due: try again shortly
)

// endpointGateSQL decides a delivery in one statement. While the endpoint
// is held, the task's outbox row is consumed with it ($4): the resume asks
// for a delivery of its own. An endpoint with no row (never paused) costs
// one index probe.
const endpointGateSQL = `WITH e AS (
  SELECT status FROM webhook_endpoints WHERE integrator_id = $1 AND url = $2
), consumed AS (
  DELETE FROM outbox WHERE task_id = $4 AND EXISTS (SELECT FROM e WHERE e.status <> 'ACTIVE')
)
SELECT CASE
  WHEN NOT EXISTS (SELECT FROM e) THEN 0
  WHEN EXISTS (SELECT FROM e WHERE e.status <> 'ACTIVE') THEN 1
  WHEN EXISTS (SELECT FROM postbacks p WHERE p.integrator_id = $1 AND p.url = $2 AND p.status = 'PENDING'
    AND p.id < $3 AND p.next_attempt_at <= now()) THEN 2
  ELSE 0 END`

// MayHoldDeliveries says whether any of an integrator's endpoints has a
// row (was paused or disabled, now or before): only then can GateDelivery
// answer other than GateGo, so a delivery of another integrator skips its
// statement. From the key cache when there is one (CacheKeys; a pause,
// resume or disable empties it with its commit, migration 39), else one
// index probe.
func (db *DB) MayHoldDeliveries(ctx context.Context, integratorID int64) (bool, error) {
	c := db.keys.Load()
	var gen uint64
	if c != nil {
		if may, ok := c.mayHold(integratorID); ok {
			return may, nil
		}
		gen = c.generation()
	}
	var may bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM webhook_endpoints WHERE integrator_id = $1)`, integratorID).Scan(&may); err != nil {
		return true, fmt.Errorf("storage: endpoints of integrator %d: %w", integratorID, err)
	}
	if c != nil {
		c.putMayHold(gen, integratorID, may)
	}
	return may, nil
}

// GateDelivery says whether postback id, to integratorID's url, may be
// attempted now. outboxDone is the delivering task's id.
func (db *DB) GateDelivery(ctx context.Context, integratorID int64, url string, id uuid.UUID, outboxDone string) (EndpointGate, error) {
	var g EndpointGate
	if err := db.pool.QueryRow(ctx, endpointGateSQL, integratorID, url, id, outboxDone).Scan(&g); err != nil {
		return GateGo, fmt.Errorf("storage: endpoint gate: %w", err)
	}
	return g, nil
}

// endpointHeld is a condition on a postbacks row (named postbacks): its
// endpoint is paused or disabled.
const endpointHeld = `EXISTS (SELECT FROM webhook_endpoints e WHERE e.integrator_id = postbacks.integrator_id
	AND e.url = postbacks.url AND e.status <> 'ACTIVE')`
