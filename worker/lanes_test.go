package worker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// Every queue a task can be put on has a lane serving it.
func TestEveryQueueHasALane(t *testing.T) {
	w := New(Config{}, Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	conc := w.cfg.Lanes.byQueue()
	for _, q := range tasks.Queues {
		if w.lane(q) == nil || conc[q] <= 0 {
			t.Errorf("queue %q has no lane", q)
		}
	}
}

// Sends blocked at the provider fill the sends lane and no more: a
// provider notification queued behind them is handled at once, and the
// sends lane never runs more than its concurrency.
func TestBlockedSendsDoNotDelayNotifications(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { rdb.Close() })
	q := tasks.NewQueue(rdb)
	t.Cleanup(q.Close)
	const sends = 2
	w := New(Config{Lanes: LaneConfig{Sends: sends}, WakeMaxWait: time.Hour, ShutdownTimeout: time.Second},
		Deps{Redis: rdb, Queue: q, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})

	release := make(chan struct{})
	var running, most atomic.Int64
	handled := make(chan struct{}, 1)
	mux := asynq.NewServeMux()
	mux.HandleFunc(tasks.TypeWithdrawalSend, func(ctx context.Context, _ *asynq.Task) error {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		defer running.Add(-1)
		select { // a provider that never answers
		case <-release:
		case <-ctx.Done():
		}
		return nil
	})
	mux.HandleFunc(tasks.TypeProviderEvent, func(context.Context, *asynq.Task) error {
		handled <- struct{}{}
		return nil
	})
	if err := w.startLanes(mux); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	w.listenLanes(ctx, &wg)
	t.Cleanup(func() { close(release); cancel(); wg.Wait(); w.shutdownLanes() })

	enqueue := func(typ, id string) {
		t.Helper()
		task, err := tasks.NewTask(typ, id, []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := q.EnqueueContext(ctx, task); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 5 * sends {
		enqueue(tasks.TypeWithdrawalSend, fmt.Sprintf("lanes-send-%d", i))
	}
	deadline := time.Now().Add(10 * time.Second)
	for running.Load() < sends {
		if time.Now().After(deadline) {
			t.Fatal("the sends lane never filled up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	enqueue(tasks.TypeProviderEvent, "lanes-event")
	select {
	case <-handled:
	case <-time.After(10 * time.Second):
		t.Fatal("a notification waited behind blocked sends")
	}
	if n := most.Load(); n > sends {
		t.Fatalf("the sends lane ran %d tasks at once, its concurrency is %d", n, sends)
	}
}

// lane is the lane of queue q.
func (w *Worker) lane(q string) *lane {
	for _, l := range w.lanes {
		if l.queue == q {
			return l
		}
	}
	return nil
}

// The postbacks lane is as wide as the lanes that feed it, and one
// integrator's share of it a quarter at most. With 16 slots, offered three
// and ten times the lifecycle's peak, the deliveries were the bound: some
// 250 waited throughout and completions swung between 0.35× and 1.6× the
// peak from one second to the next. Its HTTP client keeps a connection per
// slot to one receiver, so a burst to one host reuses them.
func TestPostbacksLaneKeepsPaceWithTheLanesThatFeedIt(t *testing.T) {
	w := New(Config{}, Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	lanes := w.cfg.Lanes
	if lanes.Postbacks < lanes.Events || lanes.Postbacks < lanes.Sends {
		t.Errorf("postbacks lane %d slots, narrower than the events (%d) or sends (%d) lane that feed it", lanes.Postbacks, lanes.Events, lanes.Sends)
	}
	if per := w.cfg.Postbacks.PerIntegrator; per*4 > lanes.Postbacks {
		t.Errorf("one integrator may hold %d of the lane's %d slots, more than a quarter", per, lanes.Postbacks)
	}
	if postback.IdleConnsPerHost < lanes.Postbacks {
		t.Errorf("%d idle connections kept per receiver, fewer than the lane's %d slots", postback.IdleConnsPerHost, lanes.Postbacks)
	}
}
