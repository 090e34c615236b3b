package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Documents and keys that pass their check digits.
const (
	validCPF  = "52998224725"
	validCNPJ = "11222333000181"
)

// env is the API served on a real listener, against a fresh database, a
// leased Redis database and a sandbox provider over real HTTP.
type env struct {
	t    *testing.T
	db   *storage.DB
	rdb  *redis.Client
	sb   *sandbox.Sandbox
	url  string
	http *http.Client
	logs *syncBuffer
}

// setup is what a test may change before the server starts.
type setup struct {
	cfg        Config
	provider   providerclient.Config
	noProvider bool // Deps.Provider left nil
	// fleet, when set, makes Deps.Provider a fleet of providers of these
	// names, all on the sandbox, the first the default route's first;
	// member, when set, changes each one's settings (by its name).
	fleet   []string
	member  func(name string, c *providerclient.Config)
	metrics *prometheus.Registry
	clock   func() time.Time // Deps.Clock
	ready   []ReadyCheck
	live    func() error
	pool    storage.Config // the database handle's settings (a pool of one)
}

func newEnv(t *testing.T, opts ...func(*setup)) *env {
	t.Helper()
	sb := sandbox.New(sandbox.Config{SettleDelay: time.Hour}) // nothing settles behind a test's back
	psrv := httptest.NewServer(sb.Handler())
	t.Cleanup(psrv.Close) // after sb.Close, which releases held requests
	t.Cleanup(sb.Close)

	st := setup{
		cfg: Config{ProviderWebhookURL: "https://pixgate.example/webhooks/provider/t0k3n"},
		provider: providerclient.Config{
			BaseURL: psrv.URL, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret,
			Timeout: 2 * time.Second, RetryMaxElapsed: -1, BreakerFailures: 1000, BreakerOpenTimeout: time.Second,
		},
		pool: storage.Config{}, // storagetest.PoolSize connections
	}
	for _, o := range opts {
		o(&st)
	}
	db := storagetest.NewDBWith(t, st.pool)
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { _ = rdb.Close() })
	logs := &syncBuffer{}
	deps := Deps{DB: db, Redis: rdb, Provider: providerclient.Wrap(family.NewConnector(st.provider), st.provider), Logger: newTestLogger(logs), Clock: st.clock}
	if st.noProvider {
		deps.Provider = nil
	}
	if st.fleet != nil {
		deps.Provider = newFleet(t, st.provider, st.member, st.fleet...)
	}
	if st.metrics != nil {
		deps.Metrics = st.metrics
	}
	deps.Ready, deps.Live = st.ready, st.live
	return &env{t: t, db: db, rdb: rdb, sb: sb, url: serve(t, New(st.cfg, deps)),
		http: &http.Client{Timeout: 20 * time.Second}, logs: logs}
}

// serve runs the server on a loopback port until the test ends and returns
// its base URL.
func serve(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.App().Listener(ln) }()
	t.Cleanup(func() { _ = srv.App().ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

// integrator creates an integrator and returns it with its v1 bearer token.
func (e *env) integrator(name string, cashIn, cashOut money.FeeRule) (storage.Integrator, string) {
	e.t.Helper()
	in, creds, err := e.db.CreateIntegrator(context.Background(), storage.NewIntegrator{
		Name: name, Email: strings.ToLower(strings.ReplaceAll(name, " ", ".")) + "@example.com", CashIn: cashIn, CashOut: cashOut})
	if err != nil {
		e.t.Fatal(err)
	}
	return in, creds.Token()
}

// fund credits an integrator's available balance.
func (e *env) fund(id int64, m money.Money) {
	e.t.Helper()
	if _, err := e.db.CreditWallet(context.Background(), id, m, "test funding"); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) wallet(id int64) storage.Wallet {
	e.t.Helper()
	w, err := e.db.Wallet(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return w
}

// count runs a SELECT count(*) on the test database.
func (e *env) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// on returns the env bound to a subtest, so that its failures are the
// subtest's.
func (e *env) on(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// oversized sends a POST declaring a body of size bytes over a raw
// connection. The server answers 413 as soon as it has read the headers and
// closes the connection, which would race an HTTP client still writing the
// body; here only the first kilobyte is written.
func (e *env) oversized(path, token string, size int) reply {
	e.t.Helper()
	return e.raw(fmt.Sprintf("POST %s HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"amount\": 1, \"x\": \"%s",
		path, token, size, strings.Repeat("x", 1024)))
}

// reply is a decoded answer.
type reply struct {
	req    *http.Request // as sent (body already read)
	status int
	header http.Header
	raw    string
	body   map[string]any
}

// call sends a request. body may be nil, a string or []byte (sent as is) or
// anything else (sent as JSON). headers are name/value pairs; a POST gets
// Content-Type: application/json unless headers set it ("" removes it).
func (e *env) call(method, path, token string, body any, headers ...string) reply {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if method == http.MethodPost || method == http.MethodPut {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := e.http.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	r := readReply(e.t, resp)
	r.req = req
	return r
}

// readReply reads and decodes an answer, numbers kept as their JSON text.
func readReply(t *testing.T, resp *http.Response) reply {
	t.Helper()
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	_ = dec.Decode(&r.body)
	return r
}

func newRequest(method, path string) *http.Request {
	return httptest.NewRequest(method, path, nil)
}

// newTestLogger logs everything, debug included, as JSON.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// get reads a dotted path ("payer.name", "meta.next_cursor") from the body;
// numbers come back as their JSON text.
func (r reply) get(path string) any {
	var v any = r.body
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return v
}

func (r reply) str(path string) string {
	s, _ := r.get(path).(string)
	return s
}

// fieldErrors returns the "errors" member.
func (r reply) fieldErrors() map[string]any {
	m, _ := r.body["errors"].(map[string]any)
	return m
}

// data returns the items of a list answer.
func (r reply) data() []map[string]any {
	items, _ := r.body["data"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

// expect fails the test unless the status is want, showing the body.
func (r reply) expect(t *testing.T, want int) reply {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body: %s", r.status, want, r.raw)
	}
	return r
}

// expectError checks the error shape: status, code, request id matching
// the header.
func (r reply) expectError(t *testing.T, status int, code string) reply {
	t.Helper()
	r.expect(t, status)
	if got := r.str("code"); got != code {
		t.Fatalf("code %q, want %q; body: %s", got, code, r.raw)
	}
	if r.get("statusCode") != strconv.Itoa(status) || r.str("message") == "" {
		t.Fatalf("error shape: %s", r.raw)
	}
	if id := r.str("request_id"); id == "" || id != r.header.Get("X-Request-Id") {
		t.Fatalf("request_id %q vs header %q", id, r.header.Get("X-Request-Id"))
	}
	return r
}

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// newFleet is a fleet of family providers of these names, all with cfg
// as member (when not nil) changes it for each.
func newFleet(t *testing.T, cfg providerclient.Config, member func(string, *providerclient.Config), names ...string) *fleet.Fleet {
	t.Helper()
	var members []fleet.Member
	for _, n := range names {
		c := cfg
		c.Name = n
		if member != nil {
			member(n, &c)
		}
		members = append(members, fleet.Member{Config: c, Connector: family.NewConnector(c)})
	}
	f, err := fleet.New(fleet.Options{}, members...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
