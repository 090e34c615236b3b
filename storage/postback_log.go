package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// PostbackFilter selects a page of an integrator's delivery log, newest
// first (postback ids are UUIDv7: id order is creation order).
type PostbackFilter struct {
	ListParams
	Event        string     // empty: every event
	ResourceType string     // empty: every resource type
	Since, Until *time.Time // created at or after Since, before Until
}

// PostbackLog returns one page of an integrator's postbacks and whether
// more follow. The WHERE clause is built, as list's is, so that each shape
// gets a plan of its own.
func (db *DB) PostbackLog(ctx context.Context, f PostbackFilter) ([]Postback, bool, error) {
	if f.Limit <= 0 {
		return nil, false, fmt.Errorf("storage: postback log limit must be positive")
	}
	where, args := `integrator_id = $1`, []any{f.IntegratorID}
	add := func(cond string, v any) {
		args = append(args, v)
		where += fmt.Sprintf(` AND `+cond, len(args))
	}
	if f.Status != "" {
		add(`status = $%d`, f.Status)
	}
	if f.Event != "" {
		add(`event = $%d`, f.Event)
	}
	if f.ResourceType != "" {
		add(`resource_type = $%d`, f.ResourceType)
	}
	if f.Since != nil {
		add(`created_at >= $%d`, *f.Since)
	}
	if f.Until != nil {
		add(`created_at < $%d`, *f.Until)
	}
	if f.After != nil {
		add(`id < $%d`, *f.After)
	}
	args = append(args, f.Limit+1)
	rows, _ := db.pool.Query(ctx, fmt.Sprintf(`SELECT %s FROM postbacks WHERE %s ORDER BY id DESC LIMIT $%d`,
		postbackColumns, where, len(args)), args...)
	items, err := pgx.CollectRows(rows, scanPostback)
	if err != nil {
		return nil, false, fmt.Errorf("storage: postback log: %w", err)
	}
	more := len(items) > f.Limit
	if more {
		items = items[:f.Limit]
	}
	return items, more, nil
}

// IntegratorPostback returns one of an integrator's postbacks; another
// integrator's is ErrNotFound, as one that does not exist.
func (db *DB) IntegratorPostback(ctx context.Context, integratorID int64, id uuid.UUID) (Postback, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+postbackColumns+` FROM postbacks WHERE id = $1 AND integrator_id = $2`, id, integratorID)
	p, err := pgx.CollectExactlyOneRow(rows, scanPostback)
	if err != nil {
		return Postback{}, fmt.Errorf("storage: postback %s: %w", id, notFound(err))
	}
	return p, nil
}

// ErrTooManyPostbacks: a range redelivery would take more postbacks than
// its bound; nothing was redelivered.
var ErrTooManyPostbacks = errors.New("storage: too many postbacks in the range")

// RedeliverPostbackRange is RedeliverPostback for every postback of an
// integrator created in [since, until), in one transaction, when there are
// at most most of them (ErrTooManyPostbacks otherwise, nothing changed).
// msg builds each one's outbox message, whose task id must be new. Those
// of a paused or disabled endpoint are put back PENDING too: their
// deliveries are held at the gate and they wait for its resume.
func (db *DB) RedeliverPostbackRange(ctx context.Context, integratorID int64, since, until time.Time, most int,
	msg func(Postback) OutboxMessage) (n int, err error) {
	return db.redeliverRange(ctx, integratorID, "", since, until, most, msg)
}
