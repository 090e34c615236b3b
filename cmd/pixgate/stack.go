package main

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// stack is what the api and worker processes share: one database pool, one
// Redis client, one provider client (one breaker), one metrics registry.
type stack struct {
	db       *storage.DB
	redis    *redis.Client
	provider providerclient.Client
	registry *prometheus.Registry
}

// openStack connects to Postgres (applying migrations) and Redis, and builds
// the provider client.
func (c *cli) openStack(ctx context.Context) (*stack, error) {
	db, err := c.openDB(ctx)
	if err != nil {
		return nil, err
	}
	rdb, err := c.openRedis(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	reg := newRegistry()
	return &stack{db: db, redis: rdb, provider: c.newProvider(reg), registry: reg}, nil
}

func (s *stack) close() {
	_ = s.redis.Close()
	s.db.Close()
}
