package worker

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

// harness is one isolated world: a fresh database, a leased Redis
// database, a sandbox provider over real HTTP and a funded integrator.
type harness struct {
	t          *testing.T
	db         *storage.DB
	rdb        *redis.Client
	sb         *sandbox.Sandbox
	provider   family.Client            // the family's client, for tests that play PixGate's part by hand
	conn       providerclient.Connector // the connector the workers use
	integrator storage.Integrator
	log        *slog.Logger
	reconcile  ReconcileConfig // for the workers the harness starts
	sbURL      string          // the sandbox's base URL
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	h := &harness{t: t, db: storagetest.NewDB(t), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	// As the worker process runs it: small statements share commits.
	shareCtx, stopSharing := context.WithCancel(context.Background())
	t.Cleanup(stopSharing)
	h.db.ShareCommits(shareCtx, 4, 32)
	if testing.Verbose() {
		h.log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	h.rdb = redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { h.rdb.Close() })
	h.sb = sandbox.New(sandbox.Config{SettleDelay: time.Hour})
	srv := httptest.NewServer(h.sb.Handler())
	t.Cleanup(func() { srv.Close(); h.sb.Close() })
	h.sbURL = srv.URL
	pcfg := providerclient.Config{BaseURL: srv.URL, ClientID: "sandbox", ClientSecret: "sandbox",
		Timeout: 2 * time.Second, BreakerOpenTimeout: 200 * time.Millisecond}
	h.provider = family.NewBase(pcfg)
	h.conn = providerclient.Wrap(family.NewConnector(pcfg), pcfg)
	ctx := context.Background()
	in, _, err := h.db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Loja", Email: uuid.NewString() + "@example.com",
		CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.CreditWallet(ctx, in.ID, money.FromReais(100, 0), "test float"); err != nil {
		t.Fatal(err)
	}
	h.integrator = in
	return h
}

// newWorker builds a worker on the harness's world.
func (h *harness) newWorker() *Worker {
	return New(Config{RelayPollInterval: 100 * time.Millisecond, RelayDelay: time.Millisecond, BreakerOpenTimeout: 200 * time.Millisecond,
		Reconcile: h.reconcile}, Deps{DB: h.db, Redis: h.rdb, Provider: h.conn, Logger: h.log})
}

// start runs a worker until the test ends or stop is called.
func (h *harness) start() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	w := h.newWorker()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := w.Run(ctx); err != nil {
			h.t.Errorf("worker: %v", err)
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	h.t.Cleanup(stop)
	return stop
}

// createWithdrawal commits a withdrawal as the API does: reservation,
// record and outbox message in one transaction.
func (h *harness) createWithdrawal(amount money.Money, key string) storage.Transfer {
	h.t.Helper()
	id, _ := uuid.NewV7()
	msg := tasks.WithdrawalSendMessage(id, 0)
	hash := sha256.Sum256([]byte(id.String()))
	w, _, err := h.db.CreateWithdrawal(context.Background(), storage.NewWithdrawal{
		ID: id, IntegratorID: h.integrator.ID, Amount: amount, Fee: h.integrator.CashOut.Compute(amount), RequestHash: hash[:],
		CreditParty: storage.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: key, TaxID: "52998224725"},
		Outbox:      []storage.OutboxMessage{storage.OutboxMessage(msg)},
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

// eventually polls cond every 10ms until it holds or the deadline passes.
func (h *harness) eventually(what string, within time.Duration, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) withdrawal(id uuid.UUID) storage.Transfer {
	h.t.Helper()
	w, err := h.db.TransferByID(context.Background(), storage.KindWithdrawal, id)
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

func (h *harness) auditClean() {
	h.t.Helper()
	v, err := h.db.Audit(context.Background())
	if err != nil || len(v) > 0 {
		h.t.Fatalf("audit: %v %v", v, err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
