package storage

import (
	"context"
	"errors"
	"fmt"
)

// WebhookSecret returns an integrator's postback signing secret: from the
// key cache when there is one (CacheKeys; a change to the integrator
// empties it at once), else from the integrator's row, filling the cache.
// ErrNotFound: no such integrator.
func (db *DB) WebhookSecret(ctx context.Context, integratorID int64) (string, error) {
	c := db.keys.Load()
	var gen uint64
	if c != nil {
		if s, ok := c.secret(integratorID); ok {
			return s, nil
		}
		gen = c.generation()
	}
	in, err := db.Integrator(ctx, integratorID)
	switch {
	case errors.Is(err, ErrNotFound):
		return "", err
	case err != nil:
		return "", fmt.Errorf("storage: webhook secret of integrator %d: %w", integratorID, err)
	}
	if c != nil {
		c.putSecret(gen, integratorID, in.WebhookSecret)
	}
	return in.WebhookSecret, nil
}
