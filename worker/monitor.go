package worker

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynq/x/metrics"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MonitorConfig configures the worker's side HTTP server.
type MonitorConfig struct {
	// User and Password protect /monitoring (asynqmon) with HTTP Basic. With
	// no password, /monitoring is not served at all.
	User, Password string
	// RedisConnOpt is where asynqmon finds the queues.
	RedisConnOpt asynq.RedisConnOpt
	// Registry gathers the process's metrics; the queue collector is added.
	Registry *prometheus.Registry
}

// MonitorHandler serves /healthz (Postgres and Redis answer), /metrics
// (Prometheus, queue sizes and latency included) and /monitoring (asynqmon,
// where operators watch, retry and archive tasks).
func (w *Worker) MonitorHandler(cfg MonitorConfig) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", w.healthz)
	if cfg.Registry != nil {
		cfg.Registry.MustRegister(metrics.NewQueueMetricsCollector(asynq.NewInspectorFromRedisClient(w.deps.Redis)))
		mux.Handle("GET /metrics", promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}))
	}
	if cfg.Password != "" && cfg.RedisConnOpt != nil {
		mon := asynqmon.New(asynqmon.Options{RootPath: "/monitoring", RedisConnOpt: cfg.RedisConnOpt})
		mux.Handle("/monitoring/", basicAuth(cfg.User, cfg.Password, mon))
	}
	return mux
}

func (w *Worker) healthz(rw http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks, ok := map[string]string{"postgres": "ok", "redis": "ok"}, true
	if err := w.deps.DB.Ping(ctx); err != nil {
		checks["postgres"], ok = "unreachable", false
	}
	if err := w.deps.Redis.Ping(ctx).Err(); err != nil {
		checks["redis"], ok = "unreachable", false
	}
	rw.Header().Set("Content-Type", "application/json")
	if !ok {
		rw.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(rw).Encode(map[string]any{"status": map[bool]string{true: "ok", false: "unavailable"}[ok], "checks": checks})
}

// basicAuth compares hashes of the credentials in constant time.
func basicAuth(user, password string, next http.Handler) http.Handler {
	wantUser, wantPass := sha256.Sum256([]byte(user)), sha256.Sum256([]byte(password))
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		gotUser, gotPass := sha256.Sum256([]byte(u)), sha256.Sum256([]byte(p))
		if subtle.ConstantTimeCompare(gotUser[:], wantUser[:])&subtle.ConstantTimeCompare(gotPass[:], wantPass[:]) != 1 {
			rw.Header().Set("WWW-Authenticate", `Basic realm="pixgate monitoring"`)
			http.Error(rw, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(rw, r)
	})
}
