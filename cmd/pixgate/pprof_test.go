package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPprofOnlyWhenConfigured: /debug/pprof/ answers on an admin listener
// only when PIXGATE_PPROF is set; everything else reaches the listener's
// own handler either way.
func TestPprofOnlyWhenConfigured(t *testing.T) {
	own := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, on := range []bool{false, true} {
		c := &cli{cfg: config{Pprof: on}}
		h := c.withPprof(own)
		wantProfile := http.StatusTeapot
		if on {
			wantProfile = http.StatusOK
		}
		for path, want := range map[string]int{"/debug/pprof/": wantProfile, "/metrics": http.StatusTeapot} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			if rec.Code != want {
				t.Errorf("PIXGATE_PPROF=%v: GET %s = %d, want %d", on, path, rec.Code, want)
			}
		}
	}
}
