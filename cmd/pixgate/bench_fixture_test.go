package main

// Fixtures and drivers of the benchmarks in bench_test.go.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

// parallel sets b's parallelism so RunParallel starts about benchClients
// goroutines, and returns how many it will start.
func parallel(b *testing.B) int {
	procs := runtime.GOMAXPROCS(0)
	p := max(1, (benchClients+procs-1)/procs)
	b.SetParallelism(p)
	return p * procs
}

// benchParallel runs op from parallel(b) goroutines: warmOps untimed ops
// each, then b.N timed ops with RunParallel. op gets its goroutine's number
// g and a number i unique among that goroutine's ops in this round.
func benchParallel(b *testing.B, op func(g, i int) error) {
	b.Helper()
	clients := parallel(b)
	var fail firstErr
	var wg sync.WaitGroup
	for g := range clients {
		wg.Go(func() {
			for i := range warmOps {
				if err := op(g, i); err != nil {
					fail.set(err)
					return
				}
			}
		})
	}
	wg.Wait()
	fail.check(b)
	var goroutines atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		g := int(goroutines.Add(1) - 1)
		for i := warmOps; pb.Next(); i++ {
			if err := op(g, i); err != nil {
				fail.set(err)
				return
			}
		}
	})
	b.StopTimer()
	fail.check(b)
}

// firstErr keeps the first error of parallel ops: b.Fatal may not be
// called from RunParallel's goroutines.
type firstErr struct {
	once sync.Once
	err  error
}

func (f *firstErr) set(err error) { f.once.Do(func() { f.err = err }) }

func (f *firstErr) check(b *testing.B) {
	b.Helper()
	if f.err != nil {
		b.Fatal(f.err)
	}
}

// ---- fixtures ----

// The fixture of the benchmark running now: its setup, kept across the
// benchmark's rounds, and what releases it.
var current struct {
	name  string
	value any
	tb    *fixtureTB
}

// fixture returns the benchmark's setup, built by setup in its first round
// and reused by the others. Starting another benchmark releases it, and so
// does the end of the test binary (TestMain).
func fixture[T any](b *testing.B, setup func(tb testing.TB) T) T {
	b.Helper()
	if current.tb != nil && current.name == b.Name() {
		return current.value.(T)
	}
	releaseFixture()
	tb := &fixtureTB{TB: b}
	built := false
	defer func() {
		if !built { // setup failed: release what it built
			tb.release()
		}
	}()
	v := setup(tb)
	built = true
	current.name, current.value, current.tb = b.Name(), v, tb
	return v
}

func releaseFixture() {
	if current.tb != nil {
		current.tb.release()
	}
	current.name, current.value, current.tb = "", nil, nil
}

// fixtureTB is the first round's testing.B, except that cleanups wait for
// the fixture's release rather than the end of the round.
type fixtureTB struct {
	testing.TB
	cleanups []func()
}

func (t *fixtureTB) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }

func (t *fixtureTB) release() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = nil
}

// rounds numbers benchmark rounds, so that external ids stay unique in a
// database that several rounds share.
var rounds atomic.Int64

// Withdrawals in the benchmarks are R$ 1.00 with a fixed fee of R$ 0.50.
const (
	benchAmount = money.Money(100)
	benchFee    = money.Money(50)
)

// wallets are a benchmark's integrators (cash-out fee fixed R$ 0.50).
type wallets struct {
	db     *storage.DB
	ids    []int64
	tokens []string // v1 bearer tokens
}

func newWallets(tb testing.TB, db *storage.DB, n int) wallets {
	tb.Helper()
	w := wallets{db: db, ids: make([]int64, n), tokens: make([]string, n)}
	for i := range n {
		in, creds, err := db.CreateIntegrator(context.Background(), storage.NewIntegrator{
			Name: fmt.Sprintf("Bench %d", i), Email: fmt.Sprintf("bench%d@example.com", i),
			CashIn: money.Percent(15000), CashOut: money.Fixed(benchFee)})
		if err != nil {
			tb.Fatal(err)
		}
		w.ids[i], w.tokens[i] = in.ID, creds.Token()
	}
	return w
}

// fund makes every wallet cover ops withdrawals, crediting what is missing
// with room for the rounds to come.
func (w wallets) fund(b *testing.B, ops int) {
	b.Helper()
	ctx := context.Background()
	need := money.Money(ops+10) * (benchAmount + benchFee)
	for _, id := range w.ids {
		bal, err := w.db.Wallet(ctx, id)
		if err == nil && bal.Available < need {
			_, err = w.db.CreditWallet(ctx, id, 4*need-bal.Available, "benchmark float")
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// newWithdrawal is what POST /api/v1/withdrawals hands to CreateWithdrawal.
func newWithdrawal(integratorID int64, externalID string) storage.NewWithdrawal {
	id, _ := uuid.NewV7()
	send := tasks.WithdrawalSendMessage(id, 0)
	h := sha256.Sum256([]byte(externalID))
	return storage.NewWithdrawal{
		ID: id, IntegratorID: integratorID, ExternalID: &externalID,
		Amount: benchAmount, Fee: benchFee, RequestHash: h[:],
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "beltrano@example.com", TaxID: "52998224725"},
		Outbox:      []storage.OutboxMessage{storage.OutboxMessage(send)},
	}
}

// benchAPI is PixGate's API as `pixgate api` builds it (a pool of
// PIXGATE_DATABASE_MAX_CONNS' default 20, the key cache and the group
// commit at their defaults, rate limiting in Redis), with a sandbox
// provider; no worker runs, so the provider is never called.
type benchAPI struct {
	wallets // one integrator per client goroutine
	url     string
	client  *http.Client
}

func newBenchAPI(tb testing.TB, integrators int) benchAPI {
	tb.Helper()
	db, err := storage.Open(context.Background(), storage.Config{URL: storagetest.NewDatabaseURL(tb), MaxConns: 20})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(db.Close)
	defaults, err := loadConfig(nil)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	if err := db.CacheKeys(ctx, defaults.KeyCacheTTL); err != nil {
		tb.Fatal(err)
	}
	db.GroupCommit(ctx, defaults.GroupCommit, groupCommitSize)
	rdb := redis.NewClient(storagetest.NewRedis(tb))
	tb.Cleanup(func() { _ = rdb.Close() })
	sb := sandbox.New(sandbox.Config{SettleDelay: time.Hour})
	psrv := httptest.NewServer(sb.Handler())
	tb.Cleanup(psrv.Close)
	tb.Cleanup(sb.Close)
	srv := api.New(api.Config{
		ProviderWebhookURL: "http://127.0.0.1/webhooks/provider/bench",
		// High enough never to refuse: the limiter's Redis round trip is
		// measured, not its refusals.
		V1RatePerMinute: 1 << 30,
	}, api.Deps{DB: db, Redis: rdb, Provider: func() providerclient.Connector {
		cfg := providerclient.Config{BaseURL: psrv.URL, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret}
		return providerclient.Wrap(family.NewConnector(cfg), cfg)
	}()})
	return benchAPI{wallets: newWallets(tb, db, integrators), url: listen(tb, srv.App()), client: benchHTTPClient(tb)}
}

// listen serves app on a free loopback port until tb cleans up.
func listen(tb testing.TB, app *fiber.App) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	tb.Cleanup(func() { _ = app.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}

// benchHTTPClient keeps a connection alive per client goroutine.
func benchHTTPClient(tb testing.TB) *http.Client {
	tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}
	tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// roundTrip sends one request and reads the whole answer, which must have
// status want; the body is returned.
func roundTrip(client *http.Client, method, url, token string, body []byte, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != want {
		return got, fmt.Errorf("%s %s: status %d, want %d: %s", method, url, resp.StatusCode, want, got)
	}
	return got, nil
}
