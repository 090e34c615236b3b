package main

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// stack is what the api and worker processes share: one database pool, one
// Redis client, one provider client (one breaker), one metrics registry.
type stack struct {
	db       *storage.DB
	redis    redis.UniversalClient
	provider providerclient.Client
	registry *prometheus.Registry
}

// openStack connects to Postgres (applying migrations, unless
// PIXGATE_MIGRATE_ON_START is false: then it only checks they were applied)
// and Redis, and builds the provider client.
func (c *cli) openStack(ctx context.Context) (*stack, error) {
	open := c.openMigratedDB
	if !c.cfg.MigrateOnStart {
		open = c.openDB
	}
	db, err := open(ctx)
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

// component starts one part of a process: it binds its addresses at once
// (so a taken port fails the command) and adds its loop to g.
type component func(ctx context.Context, g *errgroup.Group, st *stack) error

// runStack opens the shared stack, starts the components, calls ready once
// every one is listening, and runs until ctx ends (SIGTERM, Ctrl-C) or a
// component fails; then everything shuts down gracefully.
func (c *cli) runStack(ctx context.Context, ready func(*stack) error, components ...component) error {
	st, err := c.openStack(ctx)
	if err != nil {
		return err
	}
	defer st.close()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	g, gctx := errgroup.WithContext(runCtx)
	// A component that cannot start, or a failing ready, stops the ones
	// already running before the stack they use is closed.
	abort := func(err error) error {
		stop()
		_ = g.Wait()
		return err
	}
	for _, start := range components {
		if err := start(gctx, g, st); err != nil {
			return abort(err)
		}
	}
	if ready != nil {
		if err := ready(st); err != nil {
			return abort(err)
		}
	}
	return ignoreCanceled(g.Wait())
}

func ignoreCanceled(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
