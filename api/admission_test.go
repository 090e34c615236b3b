package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

// fixedBacklog reads n, or fails when n is negative; nothing is ever
// processed.
func fixedBacklog(n *atomic.Int64) BacklogFunc {
	return func(context.Context) (Backlog, error) {
		if v := n.Load(); v >= 0 {
			return Backlog{Queued: v, Servers: 1}, nil
		}
		return Backlog{}, errors.New("redis: connection refused")
	}
}

// The decision: at or above the bound a fresh figure refuses with 503 and
// Retry-After, below it admits; a figure gone stale, a failed read and a
// bound turned off admit.
func TestAdmissionDecision(t *testing.T) {
	var backlog atomic.Int64
	clock := time.Unix(1_800_000_000, 0)
	now := func() time.Time { return clock }
	a := newAdmission(10, -1, 3*time.Second, fixedBacklog(&backlog), now)

	backlog.Store(9)
	if err := a.check(); err != nil { // the first figure is read in the request
		t.Fatalf("9 queued, bound 10: refused: %v", err)
	}
	backlog.Store(10)
	a.refresh()
	err := a.check()
	if err == nil {
		t.Fatal("10 queued, bound 10: admitted")
	}
	if err.Status != http.StatusServiceUnavailable || err.Code != codeOverloaded || err.RetryAfter != 3*time.Second {
		t.Fatalf("refusal = %d %s Retry-After %v, want 503 %s 3s", err.Status, err.Code, err.RetryAfter, codeOverloaded)
	}
	for _, secret := range []string{"10", "redis", "Redis", "asynq", "critical", "queue "} {
		if strings.Contains(err.Message, secret) {
			t.Fatalf("the refusal names %q: %s", secret, err.Message)
		}
	}

	clock = clock.Add(admissionStale + time.Millisecond) // no request read it since
	if !a.reads.Start(clock) {                           // and no read starts now: this one is held
		t.Fatal("no read was due")
	}
	if err := a.check(); err != nil {
		t.Fatalf("a stale figure refused: %v", err)
	}
	a.reads.Done()

	backlog.Store(-1) // the read fails
	a.refresh()
	if err := a.check(); err != nil {
		t.Fatalf("a failed read refused: %v", err)
	}

	if off := newAdmission(-1, time.Second, time.Second, fixedBacklog(&backlog), now); off != nil || off.check() != nil {
		t.Fatal("a negative bound still checks")
	}
	if none := newAdmission(10, time.Second, time.Second, nil, now); none.check() != nil {
		t.Fatal("nothing to read the backlog from, and still refused")
	}
}

// Creates admitted since the figure was read count toward the bound until
// the next read: a burst is refused before its first creates reach the
// queues. A read starts that count again, but the admitted creates whose
// requests have not ended (their commit, their hand-off to the queues)
// still count: forgotten at each read, a burst at ten times the peak got
// 1,082 creates in in one second, then none for three.
func TestAdmissionCountsCreatesAdmittedSinceTheRead(t *testing.T) {
	var backlog atomic.Int64
	clock := time.Unix(1_800_000_000, 0)
	a := newAdmission(10, -1, time.Second, fixedBacklog(&backlog), func() time.Time { return clock })
	a.reads.Every = time.Hour // the test reads; no request does
	a.reads.Start(clock)
	backlog.Store(4)
	a.refresh()
	for i := range 6 {
		if err := a.check(); err != nil {
			t.Fatalf("4 queued and %d admitted since, bound 10: refused", i)
		}
	}
	if a.check() == nil {
		t.Fatal("4 queued and 6 admitted since, bound 10: admitted")
	}
	a.refresh() // the admitted creates still in their requests count
	if a.check() == nil {
		t.Fatal("4 queued and 6 admitted creates not yet ended, bound 10: admitted")
	}
	for range 6 {
		a.ended()
	}
	a.refresh() // the queues still hold 4: the admitted creates were sent
	if err := a.check(); err != nil {
		t.Fatalf("after a read of 4 queued: refused: %v", err)
	}
}

// Below the bound, what refuses is the time the waiting tasks would take
// the workers at the rate they took tasks up lately: 2 s at about 100 a
// second is about 200 tasks; and never fewer than admissionFloor.
func TestAdmissionByTimeInQueue(t *testing.T) {
	clock := time.Unix(1_800_000_000, 0)
	var queued, processed int64
	servers := int64(1)
	a := newAdmission(1000, 2*time.Second, time.Second, func(context.Context) (Backlog, error) {
		return Backlog{Queued: queued, Processed: processed, Servers: servers}, nil
	}, func() time.Time { return clock })
	a.reads.Every = time.Hour // the test reads; no request does
	a.reads.Start(clock)
	queued = admissionFloor
	a.refresh()
	if a.check() == nil {
		t.Fatalf("%d waiting, workers idle: admitted", admissionFloor)
	}
	queued = admissionFloor - 1
	a.refresh()
	if err := a.check(); err != nil {
		t.Fatalf("%d waiting, workers idle: refused", admissionFloor-1)
	}
	for range 10 { // the workers take up 100 a second
		clock = clock.Add(time.Second)
		processed += 100
		a.refresh()
	}
	for _, tt := range []struct {
		queued int64
		admit  bool
	}{{150, true}, {300, false}} {
		queued = tt.queued
		a.refresh() // a read at the same moment leaves the rate as it was
		if got := a.check() == nil; got != tt.admit {
			t.Errorf("%d waiting at ~100 a second, 2 s target (limit %d): admitted %v, want %v", tt.queued, a.limit.Load(), got, tt.admit)
		}
	}
	// Every worker stopped: nothing is refused, whatever waits.
	queued, servers = 5000, 0
	a.refresh()
	if err := a.check(); err != nil {
		t.Fatalf("no worker alive, 5000 waiting: refused: %v", err)
	}
}

// Through the server: with the sends and events queues at the bound, new
// withdrawals and refunds are refused on both surfaces before
// authentication, with Retry-After and nothing written; charges and the
// provider's notifications are served as ever.
func TestAdmissionRefusesCashOutOverTheBacklog(t *testing.T) {
	e := newEnv(t, withWebhookToken, func(s *setup) { s.cfg.AdmissionBacklog = 3 })
	ctx := context.Background()
	// A worker's lane alive, as asynq announces it.
	if err := e.rdb.ZAdd(ctx, "asynq:servers", redis.Z{Score: float64(time.Now().Add(time.Hour).Unix()), Member: "worker-1"}).Err(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{tasks.QueueCritical, tasks.QueueCritical, tasks.QueueEvents} {
		if err := e.rdb.LPush(ctx, tasks.PendingKey(q), "task").Err(); err != nil {
			t.Fatal(err)
		}
	}
	in, token := e.integrator("Loja Cheia", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))

	r := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expectError(t, http.StatusServiceUnavailable, codeOverloaded)
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After = %q, want 1", r.header.Get("Retry-After"))
	}
	e.call(http.MethodPost, "/api/v1/withdrawals", "", validWithdrawal(nil)).expectError(t, http.StatusServiceUnavailable, codeOverloaded)
	e.call(http.MethodPost, "/api/v1/charges/chg_x/refunds", token, `{"amount": 1.00}`).expectError(t, http.StatusServiceUnavailable, codeOverloaded)
	e.call(http.MethodPost, "/v2/pix/payment", "", `{}`).expectError(t, http.StatusServiceUnavailable, codeOverloaded)
	e.call(http.MethodPost, "/v2/pix/refund", "", `{}`).expectError(t, http.StatusServiceUnavailable, codeOverloaded)
	if n := e.count(`SELECT count(*) FROM withdrawals`); n != 0 {
		t.Fatalf("refused creates wrote %d withdrawals", n)
	}
	if w := e.wallet(in.ID); w.Available != money.FromReais(100, 0) {
		t.Fatalf("refused creates moved money: available %v", w.Available)
	}

	e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, http.StatusCreated)
	paid := `{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "abc123", "external_id": "x",
		"amount": 15.00, "paymentType": "PIX", "status": "PAID", "dateApproval": "2026-11-22 10:00:00"}}`
	e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", paid).expect(t, http.StatusOK)
}

// Below the bound, a withdrawal is created as ever.
func TestAdmissionAdmitsBelowTheBacklog(t *testing.T) {
	e := newEnv(t, func(s *setup) { s.cfg.AdmissionBacklog = 3 })
	for range 2 {
		if err := e.rdb.LPush(context.Background(), tasks.PendingKey(tasks.QueueCritical), "task").Err(); err != nil {
			t.Fatal(err)
		}
	}
	in, token := e.integrator("Loja Calma", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, http.StatusCreated)
}

// The figure is read from asynq's own keys: a task asynq enqueued on the
// sends queue is counted (an asynq that named its keys otherwise would
// leave admission blind).
func TestQueuedTasksReadsAsynqsQueues(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { _ = rdb.Close() })
	client := asynq.NewClientFromRedisClient(rdb)
	if _, err := client.Enqueue(asynq.NewTask(tasks.TypeWithdrawalSend, nil), asynq.Queue(tasks.QueueCritical)); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Enqueue(asynq.NewTask(tasks.TypeProviderEvent, nil), asynq.Queue(tasks.QueueEvents)); err != nil {
		t.Fatal(err)
	}
	b, err := queuedTasks(rdb)(context.Background())
	if err != nil || b.Queued != 2 || b.Processed != 0 || b.Servers != 0 {
		t.Fatalf("queuedTasks = %+v, %v; want 2 queued, nothing processed, no server", b, err)
	}
	// A server taking up the sends: it announces itself, and the task it
	// runs is counted processed (both from goroutines of its own).
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{Queues: map[string]int{tasks.QueueCritical: 1}, LogLevel: asynq.FatalLevel})
	if err := srv.Start(asynq.HandlerFunc(func(context.Context, *asynq.Task) error { return nil })); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, err := queuedTasks(rdb)(context.Background())
		if err == nil && b.Servers == 1 && b.Processed == 1 && b.Queued == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a started asynq server that ran the send: %+v, %v; want one server, 1 processed, 1 queued", b, err)
		}
	}
}
