package console

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
)

// The providers page shows each lane's breaker of each provider the
// worker has, an open one marked, and says so of a provider the worker
// process left out; with no states known every row says so.
func TestProvidersPageBreakers(t *testing.T) {
	states := map[string]map[providerclient.Lane]string{
		"default": {providerclient.LaneCreate: "open", providerclient.LaneSend: "closed", providerclient.LaneRead: "half-open", providerclient.LaneStatement: "closed"},
		"unknown": {providerclient.LaneCreate: "closed"}, // no row: not listed
	}
	for _, tc := range []struct {
		name      string
		ops       Operations
		want, not []string
	}{
		{name: "states", ops: &fakeOps{breakers: states},
			want: []string{`<span class="breaker-open">create: open</span>`, "send: closed", `<span class="breaker-half-open">read: half-open</span>`,
				"statement: closed", "not in this process"},
			not: []string{"unknown"}},
		{name: "none known", ops: &fakeOps{}, want: []string{"not in this process"}, not: []string{"create:"}},
		{name: "no operations", want: []string{"not in this process"}, not: []string{"create:"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Config{Store: &fakeStore{}, Ops: tc.ops, Operator: func(*http.Request) string { return "ana" }})
			rw := httptest.NewRecorder()
			h.ServeHTTP(rw, httptest.NewRequest(http.MethodGet, "/console/providers", nil))
			body := rw.Body.String()
			if rw.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rw.Code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("no %q in %s", w, body)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(body, n) {
					t.Errorf("%q in %s", n, body)
				}
			}
		})
	}
}
