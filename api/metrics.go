package api

import (
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// httpMetrics counts requests and their latency by route pattern (never the
// raw path: ids would explode the label set), method and status.
type httpMetrics struct {
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	authFailures *prometheus.CounterVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	if reg == nil {
		return nil
	}
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_http_requests_total", Help: "HTTP requests answered, by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pixgate_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		authFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pixgate_auth_failures_total",
			Help: "Failed authentications (failed) and requests refused because their address failed too often (blocked), by surface.",
		}, []string{"surface", "outcome"}),
	}
	reg.MustRegister(m.requests, m.duration, m.authFailures)
	return m
}

func (m *httpMetrics) authFailure(surface, outcome string) {
	if m != nil {
		m.authFailures.WithLabelValues(surface, outcome).Inc()
	}
}

// observe records one request. Label values outlive the request, and the
// strings Fiber hands out (the method) point into fasthttp buffers that are
// reused for the next request: they are copied here.
func (m *httpMetrics) observe(route, method string, status int, took time.Duration) {
	if m == nil {
		return
	}
	route, method = strings.Clone(route), strings.Clone(method)
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route, method).Observe(took.Seconds())
}
