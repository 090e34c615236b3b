package main

// Benchmarks behind `make bench` (docs/benchmarks.md). The Raw ones measure
// this machine's limits with no PixGate code: a Postgres commit, a Redis
// round trip, an HTTP round trip, strconv.ParseFloat. The others measure
// PixGate on the same paths, so cmd/benchreport can state PixGate's numbers
// as ratios of the machine's. The benchmark names are cmd/benchreport's
// input contract.
//
// Each benchmark sets up outside the timer, against its own database and
// Redis database (storagetest), with wallets funded for every op it may run.
// The testing package calls a benchmark function once per b.N round and per
// -count run; a fresh database for each would cost more than the round, so
// a benchmark's setup is kept across its rounds (see fixture) and released
// when the next benchmark starts or the test binary ends.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestMain(m *testing.M) {
	// Tests that need pixgate as a separate process (the README's tour, a
	// SIGTERM under load) run this test binary with PIXGATE_TEST_MAIN=1: it
	// is then the pixgate command.
	if os.Getenv("PIXGATE_TEST_MAIN") == "1" {
		os.Exit(cliMain())
	}
	code := m.Run()
	releaseFixture()
	os.Exit(code)
}

// ---- CPU only. Benchmarks run in source order: these come first, while
// nothing of another benchmark is busy, MoneyParse right after its yardstick ----

// BenchmarkRawParseFloat is the yardstick of BenchmarkMoneyParse.
func BenchmarkRawParseFloat(b *testing.B) {
	releaseFixture() // nothing of an earlier benchmark keeps running
	var sink float64
	for b.Loop() {
		f, err := strconv.ParseFloat("1234.56", 64)
		if err != nil {
			b.Fatal(err)
		}
		sink += f
	}
	_ = sink
}

// BenchmarkMoneyParse: a JSON amount as the API parses it.
func BenchmarkMoneyParse(b *testing.B) {
	releaseFixture() // nothing of an earlier benchmark keeps running
	raw := []byte("1234.56")
	var sink money.Money
	for b.Loop() {
		m, err := money.ParseAmount(raw)
		if err != nil {
			b.Fatal(err)
		}
		sink += m
	}
	_ = sink
}

// BenchmarkFeeCompute: a percent fee (rounded half-up in 128 bits) and a
// fixed one.
func BenchmarkFeeCompute(b *testing.B) {
	releaseFixture() // nothing of an earlier benchmark keeps running
	percent, fixed := money.Percent(15000), money.Fixed(50)
	var sink money.Money
	for i := 0; b.Loop(); i++ {
		amount := money.Money(1001 + i%1000)
		sink += percent.Compute(amount) + fixed.Compute(amount)
	}
	_ = sink
}

// ---- Raw limits: the machine, no PixGate code ----

// BenchmarkRawPostgresCommit: the smallest durable write, BEGIN; one-row
// INSERT; COMMIT, through a pgx pool configured as storagetest's.
func BenchmarkRawPostgresCommit(b *testing.B) {
	ctx := context.Background()
	db := fixture(b, func(tb testing.TB) *storage.DB {
		db := storagetest.NewDB(tb)
		if _, err := db.Pool().Exec(ctx, `CREATE TABLE bench_commit (v bigint)`); err != nil {
			tb.Fatal(err)
		}
		return db
	})
	var seq atomic.Int64
	benchParallel(b, func(int, int) error {
		tx, err := db.Pool().Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if _, err := tx.Exec(ctx, `INSERT INTO bench_commit (v) VALUES ($1)`, seq.Add(1)); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// BenchmarkRawRedisPing: one Redis round trip.
func BenchmarkRawRedisPing(b *testing.B) {
	ctx := context.Background()
	rdb := fixture(b, func(tb testing.TB) *redis.Client {
		rdb := redis.NewClient(storagetest.NewRedis(tb))
		tb.Cleanup(func() { _ = rdb.Close() })
		return rdb
	})
	benchParallel(b, func(int, int) error { return rdb.Ping(ctx).Err() })
}

// BenchmarkRawHTTP: one keep-alive HTTP round trip to a bare Fiber app, the
// framework PixGate's API runs on; client and server share the machine, as
// in the API benchmarks.
func BenchmarkRawHTTP(b *testing.B) {
	type server struct {
		url    string
		client *http.Client
	}
	s := fixture(b, func(tb testing.TB) server {
		app := fiber.New(fiber.Config{DisableStartupMessage: true})
		app.Get("/", func(c *fiber.Ctx) error { return c.SendString("ok") })
		return server{url: listen(tb, app), client: benchHTTPClient(tb)}
	})
	benchParallel(b, func(int, int) error {
		_, err := roundTrip(s.client, http.MethodGet, s.url+"/", "", nil, http.StatusOK)
		return err
	})
}

// ---- PixGate ----

// BenchmarkReserveWithdrawal: db.CreateWithdrawal (reservation posting,
// withdrawal row, outbox row, in one SQL transaction) from every goroutine,
// each on wallets of its own among 64: no row lock is shared.
func BenchmarkReserveWithdrawal(b *testing.B) {
	const n = 64
	w := fixture(b, func(tb testing.TB) wallets { return newWallets(tb, storagetest.NewDB(tb), n) })
	clients := parallel(b)
	w.fund(b, b.N+warmOps*clients)
	benchReserve(b, w.db, func(g, i int) int64 { return w.ids[(g+i*clients)%n] })
}

// BenchmarkReserveOneWallet: the same against one wallet, so every op waits
// for the row locks of the same accounts.
func BenchmarkReserveOneWallet(b *testing.B) {
	w := fixture(b, func(tb testing.TB) wallets { return newWallets(tb, storagetest.NewDB(tb), 1) })
	w.fund(b, b.N+warmOps*parallel(b))
	benchReserve(b, w.db, func(int, int) int64 { return w.ids[0] })
}

// benchReserve runs CreateWithdrawal in parallel; wallet picks goroutine g's
// wallet for its i-th op.
func benchReserve(b *testing.B, db *storage.DB, wallet func(g, i int) int64) {
	ctx := context.Background()
	round := rounds.Add(1)
	benchParallel(b, func(g, i int) error {
		ext := fmt.Sprintf("bench-%d-%d-%d", round, g, i)
		_, created, err := db.CreateWithdrawal(ctx, newWithdrawal(wallet(g, i), ext))
		if err == nil && !created {
			err = fmt.Errorf("withdrawal %s not created", ext)
		}
		return err
	})
}

// BenchmarkAPICreateWithdrawal: POST /api/v1/withdrawals over HTTP, each
// goroutine as its own integrator, a new external_id every time.
func BenchmarkAPICreateWithdrawal(b *testing.B) {
	clients := parallel(b)
	s := fixture(b, func(tb testing.TB) benchAPI { return newBenchAPI(tb, clients) })
	s.fund(b, b.N+warmOps*clients)
	round := rounds.Add(1)
	benchParallel(b, func(g, i int) error {
		body := fmt.Appendf(nil, `{"amount": 1.00, "external_id": "bench-%d-%d-%d", "creditParty": `+
			`{"name": "Beltrano", "keyType": "EMAIL", "key": "beltrano@example.com", "taxId": "52998224725"}}`, round, g, i)
		_, err := roundTrip(s.client, http.MethodPost, s.url+"/api/v1/withdrawals", s.tokens[g%len(s.tokens)], body, http.StatusCreated)
		return err
	})
}

// BenchmarkAPIGetBalance: GET /api/v1/balance over HTTP: authentication,
// rate limit, the integrator and its wallet.
func BenchmarkAPIGetBalance(b *testing.B) {
	clients := parallel(b)
	s := fixture(b, func(tb testing.TB) benchAPI { return newBenchAPI(tb, clients) })
	benchParallel(b, func(g, _ int) error {
		_, err := roundTrip(s.client, http.MethodGet, s.url+"/api/v1/balance", s.tokens[g%len(s.tokens)], nil, http.StatusOK)
		return err
	})
}

// BenchmarkChargePaidPipeline: the whole `pixgate dev` (API, workers,
// sandbox provider) driven as an integrator and a payer would, one charge
// at a time: create it, pay it at the sandbox, poll GET until it is PAID.
// An op is that cycle; ms-pay-to-paid is the mean time from the payment to
// the first GET that shows PAID (notification, outbox relay, queue,
// confirmation with the provider, posting).
func BenchmarkChargePaidPipeline(b *testing.B) {
	s := fixture(b, newBenchStack)
	round := rounds.Add(1)
	if _, err := s.chargePaid(fmt.Sprintf("bench-%d-warm", round)); err != nil { // untimed
		b.Fatal(err)
	}
	var payToPaid time.Duration
	for i := 0; b.Loop(); i++ {
		took, err := s.chargePaid(fmt.Sprintf("bench-%d-%d", round, i))
		if err != nil {
			b.Fatal(err)
		}
		payToPaid += took
	}
	b.ReportMetric(float64(payToPaid)/float64(b.N)/float64(time.Millisecond), "ms-pay-to-paid")
}

// ---- running parallel benchmarks ----

// benchClients is how many goroutines a parallel benchmark runs, whatever
// the number of cores, so that runs on different machines load Postgres,
// Redis and the HTTP server the same way.
const benchClients = 16

// warmOps is how many untimed ops each goroutine runs before a round, so
// that every connection the op needs is open and every statement prepared.
const warmOps = 2
