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
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// Config holds the worker's settings; zero values get working defaults.
type Config struct {
	// Lanes is each lane's concurrency (lanes.go).
	Lanes LaneConfig
	// TaskCheckInterval is asynq's pause after a look at the queues found
	// them all empty; the processor then waits for a task to be announced
	// (wakeup.go), so the pause only delays tasks enqueued during it.
	// Default 2ms.
	TaskCheckInterval time.Duration
	// WakeMaxWait bounds how long an idle processor waits for an
	// announcement before it looks at the queues anyway (retries and
	// scheduled tasks, which asynq moves into the queues unannounced).
	// Default 1s.
	WakeMaxWait time.Duration
	// RelayPollInterval is how often the outbox relay looks for rows left
	// behind. Default 1s.
	RelayPollInterval time.Duration
	// RelayDelay is how old an outbox row must be before the relay queues
	// it: rows are queued right after their commit, so the relay only
	// takes what that missed. Default 5s.
	RelayDelay time.Duration
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
	// Today is the day (Brasília) the recurrences' cycles are scheduled,
	// sent and retried by; nil is the day of the clock. A development stack
	// gives its sandbox's, which a test moves.
	Today func() due.Date
	// Retention says how long finished bookkeeping is kept.
	Retention RetentionConfig
	// ShutdownTimeout bounds how long running tasks may finish on SIGTERM
	// before they are handed back to the queue. Default 20s.
	ShutdownTimeout time.Duration
}

func (c Config) withDefaults() Config {
	c.Lanes = c.Lanes.withDefaults()
	if c.TaskCheckInterval <= 0 {
		c.TaskCheckInterval = 2 * time.Millisecond
	}
	if c.WakeMaxWait <= 0 {
		c.WakeMaxWait = time.Second
	}
	if c.RelayPollInterval <= 0 {
		c.RelayPollInterval = time.Second
	}
	if c.RelayDelay <= 0 {
		c.RelayDelay = 5 * time.Second
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
	DB    *storage.DB
	Redis redis.UniversalClient
	// Queue enqueues and announces tasks, the process's (storage's commits
	// hand it their outbox too); nil: the worker's own, on Redis.
	Queue    *tasks.Queue
	Provider Provider
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
	lanes   []*lane // one task server per queue (lanes.go)
	// ownQueue: deps.Queue is the worker's own, closed when Run ends.
	ownQueue bool
	relay    *relay
	ticker   *ticker
	// What the decisions read and write, by role (store.go).
	charges     chargeStore
	transfers   transferStore
	infractions infractionStore
	recurrences recurrenceStore
	cycles      cycleStore
	events      eventStore
	postbacks   postbackStore
	approvals   approvalStore // nil: the approval steps are skipped
	tx          txRunner
	provider    Provider
	queue       enqueuer // where the reconciler puts tasks directly
	// postbackHTTP is the SSRF-guarded client of postback deliveries,
	// shared so that deliveries to one receiver reuse connections.
	postbackHTTP *http.Client
	// now is the reconciler's clock (tests drive the charge schedule).
	now func() time.Time
	// retention prunes finished bookkeeping (retention.go).
	retention *retention
	// eventShares bounds each provider's part of the events lane
	// (shares.go).
	eventShares *shares
	// postbackSlots bounds each integrator's part of the postbacks lane
	// (postback_gate.go).
	postbackSlots *integratorSlots
	// behind holds sends back while later stages are behind (priority.go);
	// nil without Redis.
	behind *behind
}

// New assembles a worker; Run starts it.
func New(cfg Config, deps Deps) *Worker {
	st, client := dbStore{deps.DB}, deps.Queue
	own := client == nil && deps.Redis != nil
	if own {
		client = tasks.NewQueue(deps.Redis)
		deps.Queue = client
	}
	var queue enqueuer = client
	if client == nil {
		queue = nil
	}
	w := newWorker(cfg, st, deps.Provider, queue, deps.Logger.With("component", "worker"), newWorkerMetrics(deps.Metrics))
	w.deps, w.ownQueue = deps, own
	w.lanes = w.newLanes(deps.Redis)
	w.behind = newBehind(deps.Redis, w.cfg.Lanes.SendsWhenBehind)
	w.relay = &relay{store: st, enqueuer: client, log: w.log.With("loop", "outbox-relay"), interval: w.cfg.RelayPollInterval,
		delay: w.cfg.RelayDelay, lag: w.metrics.lag}
	w.ticker = &ticker{every: w.cfg.Reconcile.Interval, enqueue: w.enqueueNow, log: w.log.With("loop", "reconcile-ticker")}
	w.retention = &retention{store: st, cfg: w.cfg.Retention, log: w.log.With("loop", "retention")}
	return w
}

// newWorker is the worker's decisions over its stores, its provider and
// its queue, without the asynq machinery New adds: what the decision
// tests run.
func newWorker(cfg Config, st store, provider Provider, queue enqueuer, log *slog.Logger, metrics *workerMetrics) *Worker {
	cfg = cfg.withDefaults()
	return &Worker{cfg: cfg, log: log, metrics: metrics, now: time.Now, postbackHTTP: postback.NewHTTPClient(cfg.Postbacks),
		charges: st, transfers: st, infractions: st, recurrences: st, cycles: st, events: st, postbacks: st, tx: st, provider: provider, queue: queue,
		eventShares: newShares(cfg.Lanes.withDefaults().Events), postbackSlots: newIntegratorSlots(cfg.Postbacks.PerIntegrator),
		approvals: approvalsOf(st)}
}

// approvalsOf is st's approvalStore, nil when it has none.
func approvalsOf(st store) approvalStore {
	a, _ := st.(approvalStore)
	return a
}

// Handler is the task router, exposed for tests that drive handlers directly.
func (w *Worker) Handler() asynq.Handler {
	mux := asynq.NewServeMux()
	mux.Use(warmStack, traceTask, w.logTask, w.finishFirst) // the task's log lines carry its trace id
	mux.HandleFunc(tasks.TypeWithdrawalSend, w.handleWithdrawalSend)
	mux.HandleFunc(tasks.TypeRefundSend, w.handleRefundSend)
	mux.HandleFunc(tasks.TypeMedReturnSend, w.handleMedReturnSend)
	mux.HandleFunc(tasks.TypeProviderEvent, w.applyProviderEvent)
	mux.HandleFunc(tasks.TypePostbackDeliver, w.deliverPostback)
	mux.HandleFunc(tasks.TypeReconcileTick, w.reconcile)
	mux.HandleFunc(tasks.TypeWithdrawalDecided, w.notifyDecision)
	return mux
}

// Run processes tasks, relays the outbox and ticks the reconciler until ctx
// ends, then stops in order: the loops first (nothing new is enqueued), then
// the lanes' task servers (running tasks get ShutdownTimeout to finish, the rest return to the queue).
func (w *Worker) Run(ctx context.Context) error {
	if err := w.startLanes(w.Handler()); err != nil {
		return err
	}
	var wg sync.WaitGroup
	w.listenLanes(ctx, &wg)
	w.watchWakeups(ctx, &wg)
	w.relay.start(ctx, &wg)
	w.ticker.start(ctx, &wg)
	w.retention.start(ctx, &wg)
	<-ctx.Done()
	wg.Wait()
	w.shutdownLanes()
	if w.ownQueue {
		w.deps.Queue.Close()
	}
	return nil // the Redis client is the process's, closed by its owner
}

// isFailure decides whether an error counts against a task's retries. A
// breaker that is open, or a provider's share of the lane in use, says
// nothing about the task: it is retried later without spending a retry.
func isFailure(err error) bool {
	return !errors.Is(err, providerclient.ErrBreakerOpen) && !errors.Is(err, errShareFull)
}

// retryDelay uses the delay a postback delivery asked for, waits out an
// open breaker, comes back shortly when the provider's share of the lane
// was in use or its first consults went unanswered, and otherwise backs off
// exponentially (1s, 2s, 4s ... capped at 10 minutes) with up to 20% jitter.
func retryDelay(breakerOpen time.Duration) asynq.RetryDelayFunc {
	return func(n int, err error, _ *asynq.Task) time.Duration {
		if d, ok := postbackRetryDelay(err); ok {
			return d
		}
		if errors.Is(err, providerclient.ErrBreakerOpen) {
			return breakerOpen + jitter(breakerOpen/5)
		}
		if errors.Is(err, errShareFull) {
			return shareRetry + jitter(shareRetry/2)
		}
		if errors.Is(err, errConsultAgain) && n < consultRetries {
			return consultRetry + jitter(consultRetry/2)
		}
		d := 10 * time.Minute
		if n < 10 {
			d = min(time.Duration(1<<n)*time.Second, d)
		}
		return d + jitter(d/5)
	}
}

// today is the day the recurrences' cycles count by.
func (w *Worker) today() due.Date {
	if w.cfg.Today != nil {
		return w.cfg.Today()
	}
	return due.Today(w.now())
}
