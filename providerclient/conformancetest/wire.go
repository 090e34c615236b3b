package conformancetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// injector stands in front of a connector, as a proxy or a gateway on the
// way to the provider would: a request that a rule matches is answered by
// the rule and never reaches the provider (nor the specification's
// checks, which judge the provider's answers, not a stranger's).
type injector struct {
	next http.RoundTripper
	// sandbox names the scenario's sandbox behind the listener (front).
	sandbox string

	mu    sync.Mutex
	rules []rule
	hits  int
}

// rule is an answer the injector gives in the provider's stead.
type rule struct {
	// on is the route it answers; a zero route answers every request.
	on          route
	status      int
	contentType string
	body        string
}

// answer makes the injector answer what r matches, until clear.
func (in *injector) answer(r rule) {
	in.mu.Lock()
	in.rules = append(in.rules, r)
	in.mu.Unlock()
}

// clear lets every request through again.
func (in *injector) clear() {
	in.mu.Lock()
	in.rules = nil
	in.mu.Unlock()
}

// answered is how many requests the injector answered.
func (in *injector) answered() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.hits
}

func (in *injector) RoundTrip(req *http.Request) (*http.Response, error) {
	in.mu.Lock()
	var hit *rule
	for i := range in.rules {
		if in.rules[i].on.matches(req) {
			hit = &in.rules[i]
			in.hits++
			break
		}
	}
	in.mu.Unlock()
	if hit == nil {
		req = req.Clone(req.Context())
		req.Header.Set(sandboxHeader, in.sandbox)
		return in.next.RoundTrip(req)
	}
	if req.Body != nil {
		_ = req.Body.Close()
	}
	h := http.Header{}
	if hit.contentType != "" {
		h.Set("Content-Type", hit.contentType)
	}
	h.Set("Content-Length", strconv.Itoa(len(hit.body)))
	return &http.Response{Status: strconv.Itoa(hit.status) + " " + http.StatusText(hit.status), StatusCode: hit.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Body: io.NopCloser(strings.NewReader(hit.body)),
		ContentLength: int64(len(hit.body)), Request: req}, nil
}

// matches reports whether req is a request to the route: its method, and
// its path segment by segment, a {name} of the pattern standing for any
// one segment. The zero route matches every request.
func (r route) matches(req *http.Request) bool {
	if r.method != "" && r.method != req.Method {
		return false
	}
	if r.pattern == "" {
		return true
	}
	want, got := strings.Split(r.pattern, "/"), strings.Split(req.URL.EscapedPath(), "/")
	if len(want) != len(got) {
		return false
	}
	for i, w := range want {
		if strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}") {
			if got[i] == "" {
				return false
			}
		} else if w != got[i] {
			return false
		}
	}
	return true
}

// bare are answers no contract gives: a proxy's, a gateway's, a wrong
// path's. They prove nothing about what the provider holds.
var bare = []struct{ contentType, body string }{
	{"text/plain; charset=utf-8", "404 page not found\n"},
	{"", ""},
	{"text/html", "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"},
	{"application/json", `{"message": "Not Found"}`},
}

// delivery is one notification the receiver accepted.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver is PixGate's notification endpoint: it keeps what it accepts,
// checks each body against the contract's specification where PixGate has
// one, and, while down, refuses every delivery (so that the provider tries
// again later).
type receiver struct {
	srv   *httptest.Server
	t     testing.TB
	check func([]byte) error

	mu      sync.Mutex
	down    bool
	refused int
	got     []delivery
}

func newReceiver(t testing.TB, check func([]byte) error) *receiver {
	rc := &receiver{t: t, check: check}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.down {
		rc.refused++
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if rc.check != nil {
		if err := rc.check(body); err != nil {
			rc.t.Errorf("a notification does not conform to the contract's specification: %v\n%s", err, body)
		}
	}
	rc.got = append(rc.got, delivery{header: r.Header.Clone(), body: body})
}

// setDown makes the receiver refuse (true) or accept (false) deliveries.
func (rc *receiver) setDown(down bool) {
	rc.mu.Lock()
	rc.down = down
	rc.mu.Unlock()
}

func (rc *receiver) refusals() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.refused
}

// deliveries are the notifications accepted so far, from the from-th.
func (rc *receiver) deliveries(from int) []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got[min(from, len(rc.got)):]...)
}

// waitFor polls cond every few milliseconds until it holds, failing t after
// 5 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
