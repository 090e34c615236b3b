package worker

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

func TestDequeueOfRecognizesAsynqDequeueOnly(t *testing.T) {
	dequeue := func(name string, keys ...string) redis.Cmder {
		args := []any{name, "sha", len(keys)}
		for _, k := range keys {
			args = append(args, k)
		}
		return redis.NewCmd(context.Background(), append(args, int64(1700000000), "asynq:{critical}:t:")...)
	}
	for _, c := range []struct {
		name  string
		cmd   redis.Cmder
		queue string
	}{
		{"evalsha", dequeue("evalsha", "asynq:{critical}:pending", "asynq:{critical}:paused", "asynq:{critical}:active", "asynq:{critical}:lease"), "critical"},
		{"eval", dequeue("eval", "asynq:{events}:pending", "asynq:{events}:paused", "asynq:{events}:active", "asynq:{events}:lease"), "events"},
		{"keys of two queues", dequeue("evalsha", "asynq:{critical}:pending", "asynq:{events}:paused", "asynq:{critical}:active", "asynq:{critical}:lease"), ""},
		{"another script", dequeue("evalsha", "asynq:{critical}:pending", "asynq:{critical}:active", "asynq:{critical}:scheduled", "asynq:{critical}:lease"), ""},
		{"three keys", dequeue("evalsha", "asynq:{critical}:pending", "asynq:{critical}:paused", "asynq:{critical}:active"), ""},
		{"a plain command", redis.NewStringCmd(context.Background(), "get", "asynq:{critical}:pending"), ""},
	} {
		q, ok := dequeueOf(c.cmd)
		if q != c.queue || ok != (c.queue != "") {
			t.Errorf("%s: dequeueOf = %q, %v; want %q", c.name, q, ok, c.queue)
		}
	}
}

// An idle worker waits instead of polling: once a look at every queue
// found nothing, its processor makes no further look until a task is
// announced (here the only way: WakeMaxWait is an hour). The asynq
// version in go.mod is the one whose dequeue the hook must recognize:
// this test fails if it no longer does.
func TestIdleWorkerWaitsForAnAnnouncedTask(t *testing.T) {
	h := newHarness(t)
	q := tasks.NewQueue(h.rdb)
	t.Cleanup(q.Close)
	h.db.EnqueueAfterCommit(func(ctx context.Context, msgs []storage.OutboxMessage) {
		for _, m := range msgs {
			if err := q.Enqueue(ctx, tasks.Message(m)); err != nil {
				t.Errorf("enqueue %s: %v", m.ID, err)
			}
		}
	})
	w := New(Config{RelayDelay: time.Hour, WakeMaxWait: time.Hour, BreakerOpenTimeout: 200 * time.Millisecond},
		Deps{DB: h.db, Redis: h.rdb, Queue: q, Provider: h.conn, Logger: h.log})
	waits := make(chan struct{}, len(w.lanes))
	var looks atomic.Int64
	for _, l := range w.lanes {
		l.wake.waits = make(chan struct{}, 1)
		l.wake.looked = func() { looks.Add(1) }
		go func() {
			if _, ok := <-l.wake.waits; ok {
				waits <- struct{}{}
			}
		}()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	for range w.lanes { // every lane's processor waits
		select {
		case <-waits:
		case <-time.After(10 * time.Second):
			t.Fatal("a lane's processor never waited: the hook does not recognize this asynq's dequeue")
		}
	}
	if !w.checkWakeups() {
		t.Fatal("the running worker's check says a lane's wake-up recognized no dequeue")
	}
	// The worker's own start (its first reconciler tick) wakes it a few
	// times; then it must stay quiet. Polling every 2 ms would look about
	// 100 times in each 200 ms.
	quiet := false
	for range 10 {
		before := looks.Load()
		time.Sleep(200 * time.Millisecond)
		if looks.Load() == before {
			quiet = true
			break
		}
	}
	if !quiet {
		t.Fatal("an idle processor keeps looking at the queues")
	}
	wd := h.createWithdrawal(1000, "fulano@example.com")
	h.eventually("withdrawal sent on its announcement", 5*time.Second, func() bool { return h.withdrawal(wd.ID).PixID != nil })
}

// A stopping worker does not keep its processor waiting.
func TestWakeupReleasesTheProcessorWhenStopped(t *testing.T) {
	w := newWakeup(map[string]int{"critical": 1}, time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)))
	w.dequeued("critical", true) // a round found nothing
	released := make(chan struct{})
	go func() { w.waitIfIdle(); close(released) }()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	listen(ctx, redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 10 * time.Millisecond}), []*wakeup{w})
	select {
	case <-released:
	case <-time.After(5 * time.Second):
		t.Fatal("the processor still waits after the worker stopped")
	}
}

// An announcement wakes the lanes of the queues it names and no other:
// a withdrawal's send does not make the postbacks' and events' lanes look
// at their queues.
func TestAnnouncementWakesOnlyItsQueuesLanes(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { rdb.Close() })
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	sends := newWakeup(map[string]int{tasks.QueueCritical: 1}, time.Hour, discard)
	postbacks := newWakeup(map[string]int{tasks.QueuePostbacks: 1}, time.Hour, discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); listen(ctx, rdb, []*wakeup{sends, postbacks}) }()
	t.Cleanup(func() { cancel(); <-done })
	drain := func(w *wakeup) bool {
		select {
		case <-w.wake:
			return true
		default:
			return false
		}
	}
	woken := func(w *wakeup, what string) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !drain(w) {
			if time.Now().After(deadline) {
				t.Fatal(what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// listen pokes every lane once it has subscribed.
	woken(sends, "listen never subscribed")
	time.Sleep(20 * time.Millisecond)
	drain(postbacks)

	q := tasks.NewQueue(rdb)
	t.Cleanup(q.Close)
	if err := q.Enqueue(ctx, tasks.WithdrawalSendMessage(uuid.New(), 1)); err != nil {
		t.Fatal(err)
	}
	woken(sends, "the send's lane was not woken")
	time.Sleep(50 * time.Millisecond)
	if drain(postbacks) {
		t.Fatal("a send's announcement woke the postbacks' lane")
	}
	// An announcement naming no queue (an older publisher) wakes all.
	if err := rdb.Publish(ctx, tasks.WakeChannel, "").Err(); err != nil {
		t.Fatal(err)
	}
	woken(postbacks, "an announcement naming no queue did not wake every lane")
}

// A lane whose wake-up recognized no dequeue (here: its server never
// started, as with an asynq whose dequeue the hook does not know) is named
// in an error log line.
func TestUnrecognizedDequeueIsLogged(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { rdb.Close() })
	var logs strings.Builder
	w := New(Config{}, Deps{Redis: rdb, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if w.checkWakeups() {
		t.Fatal("the check passed with no dequeue recognized")
	}
	for _, q := range tasks.Queues {
		if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "queue="+q) {
			t.Fatalf("no error names queue %s: %s", q, logs.String())
		}
	}
}
