package worker

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/tasks"
)

// While the later stages are behind, sends beyond SendsWhenBehind wait
// for one of them to end; other tasks, and sends when nothing is behind,
// run at once.
func TestSendsYieldWhileLaterStagesAreBehind(t *testing.T) {
	b := &behind{read: func(context.Context) (int64, error) { return 0, nil }, slots: make(chan struct{}, 1)}
	b.reads.Every = time.Hour // no read during the test
	b.reads.Start(time.Now())
	w := &Worker{behind: b}
	var ran atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{})
	h := w.finishFirst(asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		ran.Add(1)
		if t.Type() == tasks.TypeWithdrawalSend {
			started <- struct{}{}
			<-release
		}
		return nil
	}))
	send := asynq.NewTask(tasks.TypeWithdrawalSend, nil)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	b.figure.Store(behindBound) // behind
	done := make(chan error)
	go func() { done <- h.ProcessTask(context.Background(), send) }()
	<-started // holds the one slot
	if err := h.ProcessTask(cancelled, send); !errors.Is(err, context.Canceled) || ran.Load() != 1 {
		t.Fatalf("a second send while behind: err %v, ran %d; want it held until its context ended", err, ran.Load())
	}
	if err := h.ProcessTask(cancelled, asynq.NewTask(tasks.TypePostbackDeliver, nil)); err != nil || ran.Load() != 2 {
		t.Fatalf("a postback while behind: err %v, ran %d", err, ran.Load())
	}

	b.figure.Store(behindBound - 1) // caught up
	go func() { done <- h.ProcessTask(cancelled, send) }()
	<-started
	if ran.Load() != 3 {
		t.Fatalf("a send when nothing is behind waited: ran %d", ran.Load())
	}
	close(release)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// Without Redis nothing is read and nothing held.
func TestNoBehindWithoutRedis(t *testing.T) {
	if newBehind(nil, 8) != nil {
		t.Fatal("a figure without Redis")
	}
}
