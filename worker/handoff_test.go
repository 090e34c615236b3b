package worker

import (
	"context"
	"crypto/sha256"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// A withdrawal's whole lifecycle runs on the tasks each commit queues
// itself, with no relay: the send, the notification's event and the
// postback each start from the commit before, and each task deletes its
// outbox row in its own commit, so nothing is left for the relay.
func TestLifecycleRunsOnHandOffsAloneAndLeavesNoOutboxRow(t *testing.T) {
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
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	w := New(Config{RelayDelay: time.Hour, BreakerOpenTimeout: 200 * time.Millisecond, Postbacks: devPolicy},
		Deps{DB: h.db, Redis: h.rdb, Provider: h.conn, Logger: h.log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	id, _ := uuid.NewV7()
	url, hash := rc.srv.URL+"/postbacks", sha256.Sum256([]byte(id.String()))
	if _, _, err := h.db.CreateWithdrawal(context.Background(), storage.NewWithdrawal{
		ID: id, IntegratorID: h.integrator.ID, Amount: 1000, Fee: h.integrator.CashOut.Compute(1000), RequestHash: hash[:],
		CreditParty: storage.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
		PostbackURL: &url, Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))},
	}); err != nil {
		t.Fatal(err)
	}
	h.eventually("withdrawal sent", 5*time.Second, func() bool { return h.withdrawal(id).PixID != nil })
	pixID := *h.withdrawal(id).PixID
	if _, err := h.sb.Settle(pixID); err != nil {
		t.Fatal(err)
	}
	h.receive("PAYMENT", pixID, "COMPLETED")
	h.eventually("postback delivered", 5*time.Second, func() bool { return len(rc.requests()) == 1 })
	if st := h.withdrawal(id).Status; st != storage.TransferCompleted {
		t.Fatalf("status %s", st)
	}
	h.eventually("every outbox row consumed", 5*time.Second, func() bool { return h.count(`SELECT count(*) FROM outbox`) == 0 })
	h.auditClean()
}
