package main

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// stack is what the api and worker processes share: one database pool, one
// Redis client, one provider client (one breaker), one metrics registry.
type stack struct {
	db       *storage.DB
	redis    redis.UniversalClient
	queue    *tasks.Queue // enqueues and announces tasks; every commit's outbox goes through it
	provider providerclient.Connector
	registry *prometheus.Registry
}

// openStack connects to Redis, then to Postgres (applying migrations,
// unless PIXGATE_MIGRATE_ON_START is false: then it only checks they were
// applied), and builds the providers' connectors (the default one and
// every provider record), one fleet. Redis comes first: a process that
// cannot reach it stops before it creates or migrates a database.
func (c *cli) openStack(ctx context.Context) (*stack, error) {
	reg := newRegistry()
	def, err := c.defaultProvider() // before any connection: a bad certificate is a setting to fix
	if err != nil {
		return nil, err
	}
	rdb, err := c.openRedis(ctx)
	if err != nil {
		return nil, err
	}
	open := c.openMigratedDB
	if !c.cfg.MigrateOnStart {
		open = c.openDB
	}
	db, err := open(ctx)
	if err != nil {
		rdb.Close()
		return nil, err
	}
	records, err := db.Providers(ctx)
	if err != nil {
		db.Close()
		rdb.Close()
		return nil, err
	}
	provider, err := c.newProvider(reg, def, records)
	if err != nil {
		db.Close()
		rdb.Close()
		return nil, err
	}
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "pixgate_sql_statements_total",
		Help: "SQL statements sent to Postgres by the process's pool (BEGIN, COMMIT and each statement of a batch included)."},
		func() float64 { return float64(db.Statements()) }))
	queue := tasks.NewQueue(rdb)
	enqueueAfterCommit(db, queue, c.log)
	return &stack{db: db, redis: rdb, queue: queue, provider: provider, registry: reg}, nil
}

func (s *stack) close() {
	s.queue.Close()
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
	defer c.sayWhenStopRequested(ctx)()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	g, gctx := errgroup.WithContext(runCtx)
	// A starved pool fails /healthz (see storage.DB.WatchPool), so the
	// orchestrator restarts the process.
	watchEvery := min(storage.DefaultPoolWatchInterval, c.cfg.DatabaseStarvedAfter/3)
	g.Go(func() error {
		st.db.WatchPool(gctx, watchEvery, c.cfg.DatabaseStarvedAfter, func(starved bool) {
			if starved {
				c.log.Error("database pool starved: every connection held and none released; /healthz fails until it recovers")
				return
			}
			c.log.Info("database pool recovered: connections are released again")
		})
		return nil
	})
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

// sayWhenStopRequested logs, as soon as ctx ends (a SIGTERM, a Ctrl-C),
// that the process is stopping, since finishing the work in flight may
// take a while. The function it returns ends the watch, having logged
// that if ctx had ended by then: the message always comes before the
// "stopped" one.
func (c *cli) sayWhenStopRequested(ctx context.Context) func() {
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
		case <-done:
			if ctx.Err() == nil {
				return
			}
		}
		c.log.Info("stop requested: finishing the work in flight", "grace", shutdownGrace)
	}()
	return func() { close(done); <-watched }
}

// logStopped says a process ended cleanly; a failure is said by the error
// the command returns.
func (c *cli) logStopped(process string, err error) {
	if err == nil {
		c.log.Info(process + " stopped")
	}
}

func ignoreCanceled(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
