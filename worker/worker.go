// Package worker runs PixGate's background work: the asynq task handlers
// (provider calls behind the circuit breaker, provider events, postbacks,
// reconciliation) and the outbox relay that feeds them. Any number of worker
// processes may run side by side.
package worker

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// Config holds the worker's settings; zero values get working defaults.
type Config struct {
	// Concurrency is how many tasks one process runs at once. Default 20.
	Concurrency int
	// TaskCheckInterval is how long an idle processor waits before polling
	// the queues again: it bounds how late a new task starts, at every task
	// hop of a lifecycle. Default 5ms (about 7% of a core and 2.5% of
	// Redis's when idle; 20ms took a charge from payment to PAID in 21 ms
	// where 5ms takes 13).
	TaskCheckInterval time.Duration
	// RelayPollInterval is how often the outbox relay looks for rows when no
	// notification woke it. Default 1s.
	RelayPollInterval time.Duration
	// ProviderWebhookURL is PixGate's own notification address, given to the
	// provider as postbackUrl.
	ProviderWebhookURL string
	// BreakerOpenTimeout is the provider breaker's open interval: tasks that
	// found it open are retried after it, without counting as failures.
	BreakerOpenTimeout time.Duration
	// Postbacks is the postback delivery policy (see postback.Config).
	Postbacks postback.Config
	// Reconcile says when lost work is re-driven.
	Reconcile ReconcileConfig
	// Retention says how long finished bookkeeping is kept.
	Retention RetentionConfig
	// ShutdownTimeout bounds how long running tasks may finish on SIGTERM
	// before they are handed back to the queue. Default 20s.
	ShutdownTimeout time.Duration
}

func (c Config) withDefaults() Config {
	if c.Concurrency <= 0 {
		c.Concurrency = 20
	}
	if c.TaskCheckInterval <= 0 {
		c.TaskCheckInterval = 5 * time.Millisecond
	}
	if c.RelayPollInterval <= 0 {
		c.RelayPollInterval = time.Second
	}
	if c.BreakerOpenTimeout <= 0 {
		c.BreakerOpenTimeout = providerclient.DefaultBreakerOpenTimeout
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = 20 * time.Second
	}
	c.Reconcile = c.Reconcile.withDefaults()
	c.Retention = c.Retention.withDefaults()
	c.Postbacks = c.Postbacks.WithDefaults()
	return c
}

// Deps are the worker's collaborators, shared with the rest of the process.
type Deps struct {
	DB       *storage.DB
	Redis    redis.UniversalClient
	Provider providerclient.Client
	Logger   *slog.Logger
	// Metrics registers the worker's metrics; nil records none.
	Metrics prometheus.Registerer
}

// Worker is one worker process's machinery.
type Worker struct {
	cfg     Config
	deps    Deps
	log     *slog.Logger
	metrics *workerMetrics
	server  *asynq.Server
	client  *asynq.Client
	relay   *relay
	ticker  *ticker
	// postbackHTTP is the SSRF-guarded client of postback deliveries,
	// shared so that deliveries to one receiver reuse connections.
	postbackHTTP *http.Client
	// now is the reconciler's clock (tests drive the charge schedule).
	now func() time.Time
	// retention prunes finished bookkeeping (retention.go).
	retention *retention
}

// New assembles a worker; Run starts it.
func New(cfg Config, deps Deps) *Worker {
	cfg = cfg.withDefaults()
	w := &Worker{cfg: cfg, deps: deps, log: deps.Logger.With("component", "worker"), metrics: newWorkerMetrics(deps.Metrics),
		now: time.Now}
	w.client = asynq.NewClientFromRedisClient(deps.Redis)
	w.postbackHTTP = postback.NewHTTPClient(cfg.Postbacks)
	w.server = asynq.NewServerFromRedisClient(deps.Redis, asynq.Config{
		Concurrency:              cfg.Concurrency,
		Queues:                   tasks.Queues,
		TaskCheckInterval:        cfg.TaskCheckInterval,
		DelayedTaskCheckInterval: time.Second,
		IsFailure:                isFailure,
		RetryDelayFunc:           retryDelay(cfg.BreakerOpenTimeout),
		ErrorHandler:             asynq.ErrorHandlerFunc(w.logTaskError),
		Logger:                   asynqLogger{w.log},
		LogLevel:                 asynq.WarnLevel,
		ShutdownTimeout:          cfg.ShutdownTimeout,
	})
	w.relay = &relay{db: deps.DB, enqueuer: w.client, log: w.log.With("loop", "outbox-relay"), interval: cfg.RelayPollInterval,
		lag: w.metrics.lag}
	w.ticker = &ticker{every: cfg.Reconcile.Interval, enqueue: w.enqueueNow, log: w.log.With("loop", "reconcile-ticker")}
	w.retention = &retention{db: deps.DB, cfg: cfg.Retention, log: w.log.With("loop", "retention")}
	return w
}

// Handler is the task router, exposed for tests that drive handlers directly.
func (w *Worker) Handler() asynq.Handler {
	mux := asynq.NewServeMux()
	mux.Use(w.logTask)
	mux.HandleFunc(tasks.TypeWithdrawalSend, w.sendWithdrawal)
	mux.HandleFunc(tasks.TypeRefundSend, w.sendRefund)
	mux.HandleFunc(tasks.TypeProviderEvent, w.applyProviderEvent)
	mux.HandleFunc(tasks.TypePostbackDeliver, w.deliverPostback)
	mux.HandleFunc(tasks.TypeReconcileTick, w.reconcile)
	return mux
}

// Run processes tasks, relays the outbox and ticks the reconciler until ctx
// ends, then stops in order: the loops first (nothing new is enqueued), then
// the task server
// (running tasks get ShutdownTimeout to finish, the rest return to the queue).
func (w *Worker) Run(ctx context.Context) error {
	if err := w.server.Start(w.Handler()); err != nil {
		return err
	}
	var wg sync.WaitGroup
	w.relay.start(ctx, &wg)
	w.ticker.start(ctx, &wg)
	w.retention.start(ctx, &wg)
	<-ctx.Done()
	wg.Wait()
	w.server.Shutdown()
	return nil // the Redis client is the process's, closed by its owner
}

// isFailure decides whether an error counts against a task's retries. A
// breaker that is open says nothing about the task: it is retried later
// without spending a retry.
func isFailure(err error) bool { return !errors.Is(err, providerclient.ErrBreakerOpen) }

// retryDelay uses the delay a postback delivery asked for, waits out an
// open breaker, and otherwise backs off
// exponentially (1s, 2s, 4s ... capped at 10 minutes) with up to 20% jitter.
func retryDelay(breakerOpen time.Duration) asynq.RetryDelayFunc {
	return func(n int, err error, _ *asynq.Task) time.Duration {
		if d, ok := postbackRetryDelay(err); ok {
			return d
		}
		if errors.Is(err, providerclient.ErrBreakerOpen) {
			return breakerOpen + jitter(breakerOpen/5)
		}
		d := 10 * time.Minute
		if n < 10 {
			d = min(time.Duration(1<<n)*time.Second, d)
		}
		return d + jitter(d/5)
	}
}
