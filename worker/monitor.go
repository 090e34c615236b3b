package worker

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/hibiken/asynq"
	"github.com/hibiken/asynq/x/metrics"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pixgate/pixgate/worker/console"
)

// MonitorConfig configures the worker's side HTTP server.
type MonitorConfig struct {
	// Users are the operators who may use /monitoring (asynqmon), with
	// HTTP Basic: name → bcrypt hash (ReadMonitorUsers). User and
	// Password, when Password is set, are one more account. With neither,
	// /monitoring is not served at all.
	Users          map[string]string
	User, Password string
	// FailuresPerMinute bounds the failed sign-ins to /monitoring per
	// client address and per user name; zero is
	// DefaultMonitorFailuresPerMinute.
	FailuresPerMinute int
	// RedisConnOpt is where asynqmon finds the queues.
	RedisConnOpt asynq.RedisConnOpt
	// Registry gathers the process's metrics; the queue collector is added.
	Registry *prometheus.Registry
	// Live, when set, is what /healthz asks besides answering at all: an
	// error (the database pool starved, storage.DB.PoolStarved) fails it,
	// so that the orchestrator restarts the process. It must answer at
	// once, from memory.
	Live func() error
}

// MonitorHandler serves /healthz (the process is alive and its database
// pool is not starved: for liveness probes), /readyz (Postgres and Redis answer: for readiness), /metrics
// (Prometheus, queue sizes and latency included), /monitoring (asynqmon,
// where operators watch, retry and archive tasks) and /console (the money
// console, worker/console).
func (w *Worker) MonitorHandler(cfg MonitorConfig) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(rw http.ResponseWriter, _ *http.Request) {
		if cfg.Live != nil {
			if err := cfg.Live(); err != nil {
				w.log.Error("liveness check failed: the process needs a restart", "error", err)
				writeJSON(rw, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "checks": map[string]string{"postgres_pool": "starved"}})
				return
			}
		}
		writeJSON(rw, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", w.readyz)
	if cfg.Registry != nil {
		cfg.Registry.MustRegister(metrics.NewQueueMetricsCollector(asynq.NewInspectorFromRedisClient(w.deps.Redis)))
		mux.Handle("GET /metrics", promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}))
	}
	if (cfg.Password != "" || len(cfg.Users) > 0) && cfg.RedisConnOpt != nil {
		auth := newMonitorAuth(cfg, redis_rate.NewLimiter(w.deps.Redis), w.log)
		mon := asynqmon.New(asynqmon.Options{RootPath: "/monitoring", RedisConnOpt: cfg.RedisConnOpt})
		mux.Handle("/monitoring/", auth.wrap(mon))
		// The money console, behind the same login: the operator its
		// actions are recorded under is the one the login verified.
		mux.Handle("/console/", auth.wrap(console.New(console.Config{Store: w.deps.DB, Ops: consoleOps{w}, Log: w.log,
			Operator: func(r *http.Request) string { user, _, _ := r.BasicAuth(); return user }})))
	}
	return mux
}

// readyz checks Postgres and Redis within two seconds. The answer names
// each with "ok" or "unavailable"; the cause, which holds internal
// addresses, goes to the log.
func (w *Worker) readyz(rw http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks, status := map[string]string{}, http.StatusOK
	for name, ping := range map[string]func(context.Context) error{
		"postgres": w.deps.DB.Ping,
		"redis":    func(ctx context.Context) error { return w.deps.Redis.Ping(ctx).Err() },
	} {
		checks[name] = "ok"
		if err := ping(ctx); err != nil {
			w.log.Warn("readiness check failed", "dependency", name, "error", err)
			checks[name], status = "unavailable", http.StatusServiceUnavailable
		}
	}
	writeJSON(rw, status, map[string]any{"status": map[bool]string{true: "ok", false: "unavailable"}[status == http.StatusOK], "checks": checks})
}

func writeJSON(rw http.ResponseWriter, status int, v any) {
	rw.Header().Set("Content-Type", "application/json")
	rw.WriteHeader(status)
	_ = json.NewEncoder(rw).Encode(v)
}
