package worker

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// receiver is an integrator's endpoint: it answers each request with the
// status respond gives for its number (1 for the first) and keeps them all.
type receiver struct {
	t       *testing.T
	srv     *httptest.Server
	respond func(n int, w http.ResponseWriter, r *http.Request)
	mu      sync.Mutex
	got     []received
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rc := &receiver{t: t, respond: respond}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{r.Header.Clone(), body})
		n := len(rc.got)
		rc.mu.Unlock()
		rc.respond(n, w, r)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func status(code int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// postbackWorker is a worker of the harness's world with a postback policy.
func (h *harness) postbackWorker(pc postback.Config) *Worker {
	return New(Config{RelayPollInterval: 50 * time.Millisecond, BreakerOpenTimeout: 200 * time.Millisecond, Postbacks: pc},
		Deps{DB: h.db, Redis: h.rdb, Provider: h.conn, Logger: h.log})
}

// devPolicy reaches the httptest receivers (http, loopback) and retries fast.
var devPolicy = postback.Config{AllowPrivate: true, AllowHTTP: true, Timeout: 2 * time.Second,
	InitialInterval: 10 * time.Millisecond, MaxInterval: 40 * time.Millisecond}

// createPostbackTo commits a completed withdrawal's postback to url, the way
// a state change does.
func (h *harness) createPostbackTo(url string) storage.Postback {
	h.t.Helper()
	pb, _ := h.newPostbackTask(url)
	return pb
}

func (h *harness) postback(id uuid.UUID) storage.Postback {
	h.t.Helper()
	p, err := h.db.Postback(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *harness) attemptCodes(id uuid.UUID) (codes []int, errs []string) {
	h.t.Helper()
	list, err := h.db.PostbackAttempts(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, a := range list {
		code, e := 0, ""
		if a.StatusCode != nil {
			code = *a.StatusCode
		}
		if a.Error != nil {
			e = *a.Error
		}
		codes, errs = append(codes, code), append(errs, e)
	}
	return codes, errs
}

// deliverOnce runs the postback:deliver handler once, as a queue would.
func deliverOnce(t *testing.T, w *Worker, id uuid.UUID) error {
	t.Helper()
	task, err := tasks.PostbackDeliverMessage(id, 0).Task()
	if err != nil {
		t.Fatal(err)
	}
	return w.Handler().ProcessTask(context.Background(), task)
}

// A receiver failing three times then accepting gets the same signed body
// four times, through asynq's own retries and the delays the handler asks
// for, and the postback ends DELIVERED with its four attempts recorded.
func TestPostbackRetriedUntilDelivered(t *testing.T) {
	h := newHarness(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(map[bool]int{true: 500, false: 200}[n <= 3])
	})
	pb := h.createPostbackTo(rc.srv.URL + "/pix?token=abc")
	w := h.postbackWorker(devPolicy)
	// The postbacks lane's task server (its retry delay function included),
	// without the relay: the task is enqueued here with the retry budget
	// the schedule needs, whatever tasks.go grants postbacks today.
	srv := w.lane(tasks.QueuePostbacks).server
	if err := srv.Start(w.Handler()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	task, err := tasks.PostbackDeliverMessage(pb.ID, 0).Task(asynq.MaxRetry(postback.QueueMaxRetry))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.queue.EnqueueContext(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	h.eventually("postback delivered", 20*time.Second, func() bool { return h.postback(pb.ID).Status == storage.PostbackDelivered })

	done := h.postback(pb.ID)
	if done.Attempts != 4 || done.DeliveredAt == nil || *done.LastStatusCode != 200 {
		t.Fatalf("delivered postback = %+v", done)
	}
	codes, _ := h.attemptCodes(pb.ID)
	if len(codes) != 4 || codes[0] != 500 || codes[1] != 500 || codes[2] != 500 || codes[3] != 200 {
		t.Fatalf("attempt status codes = %v", codes)
	}
	got := rc.requests()
	if len(got) != 4 {
		t.Fatalf("receiver got %d requests", len(got))
	}
	for i, r := range got {
		if string(r.body) != string(pb.Body) {
			t.Fatalf("request %d body differs:\n%s\n%s", i+1, r.body, pb.Body)
		}
		if err := postbacktest.Verify(h.integrator.WebhookSecret, r.header, r.body, time.Minute); err != nil {
			t.Fatalf("request %d: signature does not verify with the integrator's secret: %v", i+1, err)
		}
		if r.header.Get("webhook-id") != pb.ID.String() || r.header.Get("Content-Type") != "application/json" ||
			r.header.Get("User-Agent") != postback.UserAgent {
			t.Fatalf("request %d headers = %v", i+1, r.header)
		}
	}
	if !strings.Contains(string(pb.Body), `"transactionType":"PAYMENT"`) {
		t.Fatalf("body = %s", pb.Body)
	}
}

// Each outcome of one attempt, driving the handler as the queue would.
func TestPostbackOutcomes(t *testing.T) {
	h := newHarness(t)

	t.Run("410 stops without retry", func(t *testing.T) {
		rc := newReceiver(t, status(http.StatusGone))
		pb := h.createPostbackTo(rc.srv.URL)
		if err := deliverOnce(t, h.postbackWorker(devPolicy), pb.ID); err != nil {
			t.Fatalf("a 410 asked for a retry: %v", err)
		}
		if p := h.postback(pb.ID); p.Status != storage.PostbackStopped || p.Attempts != 1 || p.NextAttemptAt != nil {
			t.Fatalf("after 410: %+v", p)
		}
		// A duplicate task finds it final and sends nothing.
		if err := deliverOnce(t, h.postbackWorker(devPolicy), pb.ID); err != nil || len(rc.requests()) != 1 {
			t.Fatalf("duplicate task: %v, %d requests", err, len(rc.requests()))
		}
	})

	t.Run("3xx is a failure, not followed", func(t *testing.T) {
		followed := newReceiver(t, status(200))
		rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, followed.srv.URL, http.StatusFound)
		})
		pb := h.createPostbackTo(rc.srv.URL)
		err := deliverOnce(t, h.postbackWorker(devPolicy), pb.ID)
		delay, ok := postbackRetryDelay(err)
		if !ok || delay < 7*time.Millisecond || delay > 13*time.Millisecond {
			t.Fatalf("error %v asks for delay %v, %v; want about InitialInterval", err, delay, ok)
		}
		p := h.postback(pb.ID)
		if p.Status != storage.PostbackPending || p.Attempts != 1 || *p.LastStatusCode != 302 || p.NextAttemptAt == nil {
			t.Fatalf("after 302: %+v", p)
		}
		if len(followed.requests()) != 0 {
			t.Fatal("the redirect was followed")
		}
	})

	t.Run("timeout is recorded and retried", func(t *testing.T) {
		rc := newReceiver(t, func(_ int, _ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
		pb := h.createPostbackTo(rc.srv.URL + "/slow?token=s3cr3t")
		policy := devPolicy
		policy.Timeout = 150 * time.Millisecond
		err := deliverOnce(t, h.postbackWorker(policy), pb.ID)
		if _, ok := postbackRetryDelay(err); !ok {
			t.Fatalf("timeout: %v", err)
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Fatalf("the task error carries the URL's query: %v", err)
		}
		codes, errs := h.attemptCodes(pb.ID)
		if len(codes) != 1 || codes[0] != 0 || !strings.Contains(errs[0], "timeout") {
			t.Fatalf("attempts = %v %q", codes, errs)
		}
	})

	t.Run("SSRF guard refuses loopback unless private is allowed", func(t *testing.T) {
		rc := newReceiver(t, status(204))
		pb := h.createPostbackTo(rc.srv.URL) // http://127.0.0.1:port
		policy := devPolicy
		policy.AllowPrivate = false
		err := deliverOnce(t, h.postbackWorker(policy), pb.ID)
		if _, ok := postbackRetryDelay(err); !ok {
			t.Fatalf("refused address: %v", err)
		}
		_, errs := h.attemptCodes(pb.ID)
		if len(errs) != 1 || !strings.Contains(errs[0], postback.ErrBlockedAddress.Error()) || len(rc.requests()) != 0 {
			t.Fatalf("attempt errors %q, receiver reached %d times", errs, len(rc.requests()))
		}
		if err := deliverOnce(t, h.postbackWorker(devPolicy), pb.ID); err != nil {
			t.Fatal(err)
		}
		if p := h.postback(pb.ID); p.Status != storage.PostbackDelivered || p.Attempts != 2 || len(rc.requests()) != 1 {
			t.Fatalf("with private allowed: %+v", p)
		}
	})
}

// A postback past MaxAge gets FAILED instead of another retry; an operator's
// redelivery puts it back through the outbox and it is delivered.
func TestPostbackRedeliveredAfterMaxAge(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	var up atomic.Bool
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(map[bool]int{true: 200, false: 503}[up.Load()])
	})
	pb := h.createPostbackTo(rc.srv.URL)
	if _, err := h.db.Pool().Exec(ctx, `UPDATE postbacks SET created_at = now() - interval '73 hours' WHERE id = $1`, pb.ID); err != nil {
		t.Fatal(err)
	}
	if err := deliverOnce(t, h.postbackWorker(devPolicy), pb.ID); err != nil {
		t.Fatalf("a postback past MaxAge asked for a retry: %v", err)
	}
	p := h.postback(pb.ID)
	if p.Status != storage.PostbackFailed || p.Attempts != 1 || !strings.Contains(*p.LastError, "given up") {
		t.Fatalf("past MaxAge: %+v", p)
	}
	// The attempt above stood in for the queue: mark what the relay would
	// have sent by now as sent.
	if _, err := h.db.Pool().Exec(ctx, `UPDATE outbox SET enqueued_at = now()`); err != nil {
		t.Fatal(err)
	}

	msg := tasks.PostbackDeliverMessage(pb.ID, p.Attempts+1)
	if _, err := h.db.RedeliverPostback(ctx, pb.ID, storage.OutboxMessage(msg)); err != nil {
		t.Fatal(err)
	}
	if p := h.postback(pb.ID); p.Status != storage.PostbackPending {
		t.Fatalf("redelivered postback is %s", p.Status)
	}
	up.Store(true)
	// The whole worker this time: the relay enqueues the redelivery.
	wctx, cancel := context.WithCancel(ctx)
	w, done := h.postbackWorker(devPolicy), make(chan struct{})
	go func() { defer close(done); _ = w.Run(wctx) }()
	t.Cleanup(func() { cancel(); <-done })
	h.eventually("redelivered", 10*time.Second, func() bool { return h.postback(pb.ID).Status == storage.PostbackDelivered })
	if p := h.postback(pb.ID); p.Attempts != 2 || len(rc.requests()) != 2 {
		t.Fatalf("after redelivery: %d attempts, %d requests", p.Attempts, len(rc.requests()))
	}
}

func TestPostbackRetryDelay(t *testing.T) {
	if _, ok := postbackRetryDelay(io.EOF); ok {
		t.Fatal("a plain error carries no postback delay")
	}
	err := error(&postbackRetry{id: "x", attempt: 2, delay: 3 * time.Second, cause: io.EOF})
	if d, ok := postbackRetryDelay(err); !ok || d != 3*time.Second {
		t.Fatalf("delay = %v, %v", d, ok)
	}
	if d := retryDelay(time.Second)(5, err, nil); d != 3*time.Second {
		t.Fatalf("the server's retry delay ignores the postback's: %v", d)
	}
}
