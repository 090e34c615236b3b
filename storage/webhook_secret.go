package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// WebhookSecret returns an integrator's postback signing secret: from the
// key cache when there is one (CacheKeys; a change to the integrator
// empties it at once), else from the database, filling the cache.
func (db *DB) WebhookSecret(ctx context.Context, integratorID int64) (string, error) {
	c := db.keys.Load()
	var gen uint64
	if c != nil {
		if s, ok := c.secret(integratorID); ok {
			return s, nil
		}
		gen = c.generation()
	}
	var (
		secret string
		found  bool
	)
	err := db.pipeline(ctx, func(b *pgx.Batch) {
		queueOne(b, &secret, &found, func(r pgx.CollectableRow) (string, error) {
			var s string
			return s, r.Scan(&s)
		}, `SELECT webhook_secret FROM integrators WHERE id = $1`, integratorID)
	})
	switch {
	case err != nil:
		return "", fmt.Errorf("storage: webhook secret of integrator %d: %w", integratorID, err)
	case !found:
		return "", ErrNotFound
	}
	if c != nil {
		c.putSecret(gen, integratorID, secret)
	}
	return secret, nil
}
