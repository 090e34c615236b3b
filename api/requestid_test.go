package api

import (
	"net/http"
	"strings"
	"testing"
)

// A sane X-Request-Id from the client is kept, echoed and logged, so one id
// follows a request through the integrator's systems and PixGate's; any
// other value is replaced by one of PixGate's own.
func TestClientRequestIDIsKeptWhenSane(t *testing.T) {
	e := newEnv(t)
	for _, sane := range []string{"abc-123", "9f1c2b4a-5d60-4e1b-8a7e-3f1c2b4a5d60", "trace.id:42_x"} {
		r := e.call(http.MethodGet, "/nowhere", "", nil, "X-Request-Id", sane).expect(t, http.StatusNotFound)
		if r.header.Get("X-Request-Id") != sane || r.str("request_id") != sane {
			t.Errorf("client id %q: header %q, body %q", sane, r.header.Get("X-Request-Id"), r.str("request_id"))
		}
	}
	if !strings.Contains(e.logs.String(), `"request_id":"trace.id:42_x"`) {
		t.Error("the client's id is not in the access log")
	}
	for _, odd := range []string{strings.Repeat("a", 129), "has space", "quote\"", "semi;colon", "é"} {
		r := e.call(http.MethodGet, "/healthz", "", nil, "X-Request-Id", odd).expect(t, http.StatusOK)
		if got := r.header.Get("X-Request-Id"); got == odd || !strings.HasPrefix(got, "req_") {
			t.Errorf("client id %q: answered %q, want a generated one", odd, got)
		}
	}
}
