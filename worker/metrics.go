package worker

import (
	"errors"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/providerclient"
)

// workerMetrics are the worker's own Prometheus metrics; asynq's queue
// metrics are collected separately (MonitorHandler). Every method is a no-op
// on a nil receiver, so a worker built without a registry records nothing.
type workerMetrics struct {
	tasks     *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	events    *prometheus.CounterVec
	postbacks *prometheus.CounterVec
	outboxLag prometheus.Gauge
	reconcile *prometheus.CounterVec
	flags     *prometheus.CounterVec
	flaggedG  *prometheus.GaugeVec
	disabled  prometheus.Counter
}

func newWorkerMetrics(reg prometheus.Registerer) *workerMetrics {
	if reg == nil {
		return nil
	}
	m := &workerMetrics{
		tasks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_tasks_total", Help: "Tasks run, by type and result (ok, retry, breaker_open, dropped, error).",
		}, []string{"type", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pixgate_task_duration_seconds", Help: "Time to run a task, by type.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"type"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_provider_events_total", Help: "Provider notifications handled, by outcome (applied, already_applied, no_change, ignored, refused).",
		}, []string{"outcome"}),
		postbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_postback_attempts_total", Help: "Postback delivery attempts, by outcome (delivered, retry, stopped, failed).",
		}, []string{"outcome"}),
		outboxLag: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "pixgate_outbox_lag_seconds", Help: "Age of the oldest outbox row not yet handed to the queue, as last seen by this worker's relay.",
		}),
		reconcile: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_reconcile_record_failures_total", Help: "Records whose reconciliation failed (and were skipped until the next tick), by step.",
		}, []string{"step"}),
	}
	m.flags = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "pixgate_transfers_flagged_total", Help: "Withdrawals and refunds flagged for an operator (the provider no longer knows them), by kind.",
	}, []string{"kind"})
	m.flaggedG = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "pixgate_transfers_awaiting_operator", Help: "PROCESSING withdrawals and refunds flagged for an operator, by kind, as of the last reconcile tick.",
	}, []string{"kind"})
	m.disabled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "pixgate_postback_endpoints_disabled_total", Help: "Postback endpoints disabled because every delivery to them failed for PIXGATE_POSTBACK_DISABLE_AFTER.",
	})
	reg.MustRegister(m.tasks, m.duration, m.events, m.postbacks, m.outboxLag, m.reconcile, m.flags, m.flaggedG, m.disabled)
	return m
}

func (m *workerMetrics) task(taskType string, err error, took time.Duration) {
	if m == nil {
		return
	}
	m.duration.WithLabelValues(taskType).Observe(took.Seconds())
	m.tasks.WithLabelValues(taskType, taskResult(err)).Inc()
}

func taskResult(err error) string {
	var retry *postbackRetry
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, asynq.SkipRetry):
		return "dropped"
	case errors.Is(err, providerclient.ErrBreakerOpen):
		return "breaker_open"
	case errors.Is(err, errShareFull):
		return "share_full"
	case errors.As(err, &retry):
		return "retry"
	}
	return "error"
}

// event counts a notification's outcome by its kind.
func (m *workerMetrics) event(o outcome) {
	if m == nil {
		return
	}
	m.events.WithLabelValues(o.kind.label()).Inc()
}

func (m *workerMetrics) postback(outcome string) {
	if m != nil {
		m.postbacks.WithLabelValues(outcome).Inc()
	}
}

func (m *workerMetrics) lag(d time.Duration) {
	if m != nil {
		m.outboxLag.Set(d.Seconds())
	}
}

func (m *workerMetrics) reconcileFailure(step string) {
	if m != nil {
		m.reconcile.WithLabelValues(step).Inc()
	}
}

func (m *workerMetrics) flagged(kind string) {
	if m != nil {
		m.flags.WithLabelValues(kind).Inc()
	}
}

func (m *workerMetrics) setFlagged(kind string, n int) {
	if m != nil {
		m.flaggedG.WithLabelValues(kind).Set(float64(n))
	}
}
