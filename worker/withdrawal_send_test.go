package worker

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

func TestWithdrawalIsSentQuickly(t *testing.T) {
	h := newHarness(t)
	h.start()
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.eventually("withdrawal sent", 3*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	got := h.withdrawal(w.ID)
	tx, err := h.sb.Transaction(*got.PixID)
	if err != nil || tx.ExternalID != w.ID.String() {
		t.Fatalf("provider transaction = %+v, %v; want external_id %s", tx, err, w.ID)
	}
	if got.Status != storage.TransferProcessing {
		t.Fatalf("status = %s; the final status comes from the provider", got.Status)
	}
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	h.auditClean()
}

// The tests below stop the world at each point where a worker can die
// between the API's commit and the provider's answer, then start a new
// worker: the withdrawal is sent, and paid exactly once.

// Died after the API committed, before any relay ran: the outbox row waits
// in Postgres.
func TestCrashBeforeRelaySendsOnRestart(t *testing.T) {
	h := newHarness(t)
	w := h.createWithdrawal(1000, "fulano@example.com")
	time.Sleep(200 * time.Millisecond) // nothing runs: the withdrawal just waits
	if h.withdrawal(w.ID).PixID != nil {
		t.Fatal("sent without a worker")
	}
	h.start()
	h.eventually("withdrawal sent after restart", 3*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// Died after enqueueing the task but before marking the outbox row sent:
// the new relay enqueues again, the queue refuses the duplicate id, and
// the task runs once.
func TestCrashAfterEnqueueBeforeMarkingSendsOnce(t *testing.T) {
	h := newHarness(t)
	w := h.createWithdrawal(1000, "fulano@example.com")
	task, _ := tasks.WithdrawalSendMessage(w.ID, 0).Task()
	client := asynq.NewClientFromRedisClient(h.rdb)
	if _, err := client.Enqueue(task); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("withdrawal sent", 3*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	h.eventually("outbox row marked sent", 3*time.Second, func() bool {
		lag, _ := h.db.OutboxLag(context.Background(), 0)
		return lag == 0
	})
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// Died after the provider accepted the payment, before the pix_id was
// recorded: the task runs again, and the provider answers the same payment
// for the same external_id.
func TestCrashAfterProviderAcceptedPaysOnce(t *testing.T) {
	h := newHarness(t)
	w := h.createWithdrawal(1000, "fulano@example.com")
	first, err := h.provider.CreatePayment(context.Background(), family.PaymentRequest{
		Amount: w.Amount, ExternalID: w.ID.String(),
		CreditParty: family.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("withdrawal sent", 3*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	if got := *h.withdrawal(w.ID).PixID; got != first.TransactionID {
		t.Fatalf("pix_id = %s, want the first payment's %s", got, first.TransactionID)
	}
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// A task delivered twice at once (at-least-once delivery) pays once.
func TestConcurrentDuplicateDeliveryPaysOnce(t *testing.T) {
	h := newHarness(t)
	w := h.createWithdrawal(1000, "fulano@example.com")
	wk := h.newWorker()
	task, _ := tasks.WithdrawalSendMessage(w.ID, 0).Task()
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := wk.Handler().ProcessTask(context.Background(), task); err != nil {
				t.Errorf("process: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	if h.withdrawal(w.ID).PixID == nil {
		t.Fatal("pix_id not recorded")
	}
}

func TestRejectedPaymentFailsAndReleases(t *testing.T) {
	h := newHarness(t)
	before, _ := h.db.Wallet(context.Background(), h.integrator.ID)
	// The sandbox refuses a payment whose key is not valid for its type.
	w := h.createWithdrawal(1000, "not-an-email")
	h.start()
	h.eventually("withdrawal failed", 3*time.Second, func() bool { return h.withdrawal(w.ID).Status == storage.TransferFailed })
	got := h.withdrawal(w.ID)
	if got.FailureReason == nil || *got.FailureReason == "" {
		t.Fatal("no failure reason kept")
	}
	after, _ := h.db.Wallet(context.Background(), h.integrator.ID)
	if after != before {
		t.Fatalf("wallet %+v after the release, want %+v as before", after, before)
	}
	h.auditClean()
}

// During an outage the task is retried (breaker-open retries spend no
// retry budget); once the provider is back the withdrawal is sent.
func TestOutageDelaysButDoesNotLose(t *testing.T) {
	h := newHarness(t)
	h.sb.SetFaults(sandbox.Faults{Outage: true})
	h.start()
	w := h.createWithdrawal(1000, "fulano@example.com")
	time.Sleep(700 * time.Millisecond)
	if h.withdrawal(w.ID).PixID != nil {
		t.Fatal("sent during an outage")
	}
	h.sb.ResetFaults()
	h.eventually("withdrawal sent after the outage", 8*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	if got := h.withdrawal(w.ID); got.Status != storage.TransferProcessing {
		t.Fatalf("status = %s", got.Status)
	}
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
}

// A payment the provider rejects at send time fails the withdrawal, and the
// integrator is told like for any other final status: a FAILED postback.
func TestRejectedPaymentHasItsPostback(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	w := h.createWithdrawal(1000, "not-an-email")
	if _, err := h.db.Pool().Exec(ctx, `UPDATE withdrawals SET postback_url = 'https://loja.example/pix' WHERE id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("withdrawal failed", 3*time.Second, func() bool { return h.withdrawal(w.ID).Status == storage.TransferFailed })
	var event string
	if err := h.db.Pool().QueryRow(ctx, `SELECT event FROM postbacks WHERE resource_id = $1`, w.ID).Scan(&event); err != nil || event != "FAILED" {
		t.Fatalf("postback of the rejected withdrawal: %q, %v", event, err)
	}
}
