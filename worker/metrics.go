package worker

import (
	"errors"
	"strings"
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
	}
	reg.MustRegister(m.tasks, m.duration, m.events, m.postbacks, m.outboxLag)
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
	case errors.As(err, &retry):
		return "retry"
	}
	return "error"
}

// event counts a notification's outcome by its first words ("applied: …").
func (m *workerMetrics) event(outcome string) {
	if m == nil {
		return
	}
	kind, _, _ := strings.Cut(outcome, ":")
	m.events.WithLabelValues(strings.ReplaceAll(kind, " ", "_")).Inc()
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
