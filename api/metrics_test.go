package api

import (
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/storage/money"
)

// Label values must survive fasthttp's buffer reuse: after a mix of methods
// and routes, every series gathers and keeps its own labels.
func TestHTTPMetricsKeepTheirLabels(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := newEnv(t, func(s *setup) { s.metrics = reg })
	_, token := e.integrator("Loja", money.Percent(0), money.Fixed(0))
	for range 20 {
		e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, http.StatusOK)
		e.call(http.MethodPost, "/api/v1/charges", token, `{}`)
		e.call(http.MethodDelete, "/api/v1/charges", token, nil)
		e.call(http.MethodGet, "/healthz", "", nil)
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	seen := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "pixgate_http_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			key := ""
			for _, l := range m.GetLabel() {
				key += l.GetName() + "=" + l.GetValue() + " "
			}
			seen[key] = m.GetCounter().GetValue()
		}
	}
	for _, want := range []string{
		"method=GET route=/api/v1/balance status=200 ",
		"method=POST route=/api/v1/charges status=422 ",
		"method=GET route=/healthz status=200 ",
	} {
		if seen[want] != 20 {
			t.Errorf("series %q = %v, want 20 (all: %v)", want, seen[want], seen)
		}
	}
}
