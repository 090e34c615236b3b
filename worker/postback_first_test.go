package worker

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
	"github.com/pixgate/pixgate/worker/postback/postbacktest"
)

// countingPostbacks counts the reads of a postback for its delivery.
type countingPostbacks struct {
	postbackStore
	reads atomic.Int64
}

func (c *countingPostbacks) PostbackForDelivery(ctx context.Context, id uuid.UUID) (storage.Postback, string, error) {
	c.reads.Add(1)
	return c.postbackStore.PostbackForDelivery(ctx, id)
}

// newPostbackTask commits a completed withdrawal's postback to url the way
// a state change does, and returns it with the task its commit queues.
func (h *harness) newPostbackTask(url string, opts ...asynq.Option) (storage.Postback, *asynq.Task) {
	h.t.Helper()
	ctx := context.Background()
	wd := h.createWithdrawal(1000, "fulano@example.com")
	now := time.Now()
	wd.Status, wd.PostbackURL, wd.FinishedAt = storage.TransferCompleted, &url, &now
	ev, ok := postback.ForTransfer(wd)
	if !ok {
		h.t.Fatal("no postback event for a completed withdrawal with a URL")
	}
	np := postback.NewPostback(ev)
	if err := h.db.InTx(ctx, func(tx *storage.Tx) error { return tx.WritePostback(ctx, np) }); err != nil {
		h.t.Fatal(err)
	}
	task, err := tasks.Message(np.Outbox).Task(opts...)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.postback(np.ID), task
}

// A new postback's first delivery takes the postback from its task: it
// reads nothing of it, sends exactly the stored body signed with the
// integrator's secret, and records its attempt.
func TestNewPostbacksFirstDeliveryReadsNothing(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, status(http.StatusOK))
	pb, task := h.newPostbackTask(rc.srv.URL + "/pix?token=abc")
	w := h.postbackWorker(devPolicy)
	counted := &countingPostbacks{postbackStore: w.postbacks}
	w.postbacks = counted
	if err := w.Handler().ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	if n := counted.reads.Load(); n != 0 {
		t.Fatalf("the first delivery read the postback %d times", n)
	}
	if p := h.postback(pb.ID); p.Status != storage.PostbackDelivered || p.Attempts != 1 {
		t.Fatalf("after the first delivery: %+v", p)
	}
	got := rc.requests()
	if len(got) != 1 || string(got[0].body) != string(pb.Body) || got[0].header.Get("webhook-id") != pb.ID.String() {
		t.Fatalf("receiver got %d requests: %+v", len(got), got)
	}
	if err := postbacktest.Verify(h.integrator.WebhookSecret, got[0].header, got[0].body, time.Minute); err != nil {
		t.Fatalf("signature does not verify with the integrator's secret: %v", err)
	}
}

// Its retries read the postback: its attempts set their delay and its
// status whether to send at all.
func TestNewPostbacksRetriesReadIt(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(map[bool]int{true: 500, false: 200}[n <= 2])
	})
	pb, task := h.newPostbackTask(rc.srv.URL, asynq.MaxRetry(postback.QueueMaxRetry))
	w := h.postbackWorker(devPolicy)
	counted := &countingPostbacks{postbackStore: w.postbacks}
	w.postbacks = counted
	srv := w.lane(tasks.QueuePostbacks).server
	if err := srv.Start(w.Handler()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	if _, err := w.queue.EnqueueContext(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	h.eventually("postback delivered", 20*time.Second, func() bool { return h.postback(pb.ID).Status == storage.PostbackDelivered })
	if p := h.postback(pb.ID); p.Attempts != 3 {
		t.Fatalf("delivered after %d attempts, want 3", p.Attempts)
	}
	if n := counted.reads.Load(); n != 2 {
		t.Fatalf("the postback was read %d times, want 2 (its retries)", n)
	}
}
