package main

import (
	"context"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/worker"
	"github.com/pixgate/pixgate/worker/postback"
	"github.com/pixgate/pixgate/worker/statements"
)

func (c *cli) workerCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the task workers, the outbox relay and the side server (/healthz, /metrics, /monitoring)",
		Long: `Run the asynq task handlers (provider calls behind the circuit breaker, provider
events, postbacks, reconciliation) and the outbox relay. Run as many worker
processes as the load needs; they share the work through Postgres and Redis.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.requireWebhookToken(); err != nil {
				return err
			}
			if err := c.bind(settingWorkerAddr); err != nil {
				return err
			}
			defer c.closeListeners()
			err := c.runStack(cmd.Context(), func(*stack) error {
				c.log.Info("worker running", "monitor", c.cfg.WorkerAddr)
				return nil
			}, c.startWorker)
			c.logStopped("worker", err)
			return err
		},
	}
}

// startWorker adds the worker and its side server to g.
func (c *cli) startWorker(ctx context.Context, g *errgroup.Group, st *stack) error {
	ln, err := c.listener(settingWorkerAddr)
	if err != nil {
		return err
	}
	operators, err := c.monitoringUsers()
	if err != nil {
		ln.Close()
		return err
	}
	w := worker.New(worker.Config{
		Lanes: worker.LaneConfig{Events: c.cfg.WorkerEvents, Sends: c.cfg.WorkerSends, Postbacks: c.cfg.WorkerPostbacks,
			Default: c.cfg.WorkerDefault},
		ProviderWebhookURL: c.webhookURL(),
		Postbacks:          c.postbackPolicy(),
		Reconcile: worker.ReconcileConfig{Interval: c.cfg.ReconcileInterval, StaleAfter: c.cfg.ReconcileStaleAfter,
			InfractionPoll: c.cfg.InfractionPoll, InfractionPollWindow: c.cfg.InfractionPollWindow},
		Retention: worker.RetentionConfig{ProcessedEvents: c.cfg.RetainEvents, SentOutbox: c.cfg.RetainOutbox},
		Today:     c.devToday,
	}, worker.Deps{DB: st.db, Redis: st.redis, Queue: st.queue, Provider: st.provider, Logger: c.log, Metrics: st.registry})
	connOpt, err := c.redisConnOpt()
	if err != nil {
		ln.Close()
		return err
	}
	st.db.ShareCommits(ctx, c.cfg.SharedCommits, sharedCommitSize)
	// Postbacks' signing secrets, kept in memory like the api's keys.
	if err := st.db.CacheKeys(ctx, c.cfg.KeyCacheTTL); err != nil {
		ln.Close()
		return err
	}
	reconciled, err := c.statementProviders(ctx, st.db)
	if err != nil {
		ln.Close()
		return err
	}
	monitor := w.MonitorHandler(worker.MonitorConfig{Users: operators, User: c.cfg.MonitoringUser, Password: c.cfg.MonitoringPassword,
		FailuresPerMinute: c.cfg.MonitoringFailures, RedisConnOpt: connOpt, Registry: st.registry, Live: st.db.PoolStarved})
	g.Go(func() error { return w.Run(ctx) })
	// The figures of the dashboards and alerts that live in Postgres
	// (deploy/grafana, deploy/prometheus), every 30 s: well under the
	// alerts' for: durations, a few cheap queries per worker.
	ops := worker.NewOpsGauges(st.registry)
	g.Go(func() error { ops.Run(ctx, st.db, 30*time.Second, c.log); return nil })
	deadlines := worker.NewDeadlineGauges(st.registry)
	g.Go(func() error { deadlines.Run(ctx, st.db, 30*time.Second, c.log); return nil })
	g.Go(serveHTTP(ctx, c.withPprof(monitor), ln, nil))
	// Each provider's previous day, reconciled once across all workers.
	books := statements.New(c.reconcileConfig(), st.db, func() []providerclient.Connector { return reconciled },
		c.log, statements.NewMetrics(st.registry))
	g.Go(func() error {
		var wg sync.WaitGroup
		books.Start(ctx, &wg)
		wg.Wait()
		return nil
	})
	return nil
}

// postbackPolicy is the delivery policy; the API applies its address rules
// when a postbackUrl is given.
func (c *cli) postbackPolicy() postback.Config {
	return postback.Config{
		AllowPrivate: c.cfg.PostbackAllowPrivate, AllowHTTP: c.cfg.PostbackAllowHTTP, Timeout: c.cfg.PostbackTimeout,
		MaxAge: c.cfg.PostbackMaxAge, InitialInterval: c.cfg.PostbackInitialInterval, MaxInterval: c.cfg.PostbackMaxInterval,
		PerIntegrator: c.cfg.PostbackPerIntegrator, DisableAfter: c.cfg.PostbackDisableAfter,
	}
}
