package main

import (
	"context"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/worker"
	"github.com/pixgate/pixgate/worker/postback"
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
			return c.runStack(cmd.Context(), func(*stack) error {
				c.log.Info("worker running", "monitor", c.cfg.WorkerAddr)
				return nil
			}, c.startWorker)
		},
	}
}

// startWorker adds the worker and its side server to g.
func (c *cli) startWorker(ctx context.Context, g *errgroup.Group, st *stack) error {
	w := worker.New(worker.Config{
		Concurrency:        c.cfg.WorkerConcurrency,
		ProviderWebhookURL: c.webhookURL(),
		Postbacks:          c.postbackPolicy(),
		Reconcile:          worker.ReconcileConfig{Interval: c.cfg.ReconcileInterval, StaleAfter: c.cfg.ReconcileStaleAfter},
		Retention:          worker.RetentionConfig{ProcessedEvents: c.cfg.RetainEvents, SentOutbox: c.cfg.RetainOutbox},
	}, worker.Deps{DB: st.db, Redis: st.redis, Provider: st.provider, Logger: c.log, Metrics: st.registry})
	connOpt, err := c.redisConnOpt()
	if err != nil {
		return err
	}
	monitor := w.MonitorHandler(worker.MonitorConfig{User: c.cfg.MonitoringUser, Password: c.cfg.MonitoringPassword,
		RedisConnOpt: connOpt, Registry: st.registry})
	serveMonitor, err := serveHTTP(ctx, c.withPprof(monitor), c.cfg.WorkerAddr, nil)
	if err != nil {
		return err
	}
	g.Go(func() error { return w.Run(ctx) })
	g.Go(serveMonitor)
	return nil
}

// postbackPolicy is the delivery policy; the API applies its address rules
// when a postbackUrl is given.
func (c *cli) postbackPolicy() postback.Config {
	return postback.Config{
		AllowPrivate: c.cfg.PostbackAllowPrivate, AllowHTTP: c.cfg.PostbackAllowHTTP, Timeout: c.cfg.PostbackTimeout,
		MaxAge: c.cfg.PostbackMaxAge, InitialInterval: c.cfg.PostbackInitialInterval, MaxInterval: c.cfg.PostbackMaxInterval,
	}
}
