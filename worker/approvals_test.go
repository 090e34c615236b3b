package worker

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// heldWithdrawal is a withdrawal of the harness's integrator to url,
// awaiting approval until expires.
func (h *harness) heldWithdrawal(url string, expires time.Time) storage.NewWithdrawal {
	id, _ := uuid.NewV7()
	hash := sha256.Sum256([]byte(id.String()))
	ext := id.String()
	return storage.NewWithdrawal{ID: id, IntegratorID: h.integrator.ID, ExternalID: &ext, Amount: 10_00, Fee: 50, RequestHash: hash[:],
		CreditParty: storage.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
		PostbackURL: &url}.Held(&expires)
}

func (h *harness) postbackCount(resourceID uuid.UUID, event string) int {
	h.t.Helper()
	var n int
	if err := h.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM postbacks WHERE resource_id = $1 AND event = $2`,
		resourceID, event).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// The reconciler's approval step rejects what waited past its expiry
// (approval_expired, the money back); the decision's task posts each
// postback once, however often it runs; the batch step finishes a batch
// whose items are all final, with its one postback.
func TestApprovalsExpireAndBatchesFinish(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	w := h.newWorker()
	url := "https://loja.example/pix"
	before, err := h.db.Wallet(ctx, h.integrator.ID)
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Second)
	single, _, err := h.db.CreateWithdrawal(ctx, h.heldWithdrawal(url, past))
	if err != nil {
		t.Fatal(err)
	}
	nb := storage.NewWithdrawalBatch{ID: uuid.Must(uuid.NewV7()), IntegratorID: h.integrator.ID, ExternalID: "lote-expira",
		RequestHash: []byte("h"), PostbackURL: &url, ApprovalExpiresAt: &past}
	for range 3 {
		nb.Items = append(nb.Items, h.heldWithdrawal(url, past))
	}
	if _, _, err := h.db.CreateWithdrawalBatch(ctx, nb); err != nil {
		t.Fatal(err)
	}
	if err := w.expireApprovals(ctx, 0); err != nil {
		t.Fatal(err)
	}
	got, err := h.db.TransferByID(ctx, storage.KindWithdrawal, single.ID)
	if err != nil || got.Status != storage.TransferFailed || *got.FailureReason != storage.ReasonApprovalExpired {
		t.Fatalf("expired withdrawal: %+v %v", got, err)
	}
	b, err := h.db.WithdrawalBatch(ctx, nb.ID)
	if err != nil || b.Status != storage.BatchRejected || b.Failed != 3 {
		t.Fatalf("expired batch: %+v %v", b, err)
	}
	if after, _ := h.db.Wallet(ctx, h.integrator.ID); after != before {
		t.Fatalf("wallet %+v after the expiries, %+v before", after, before)
	}
	for range 2 { // a task run twice posts nothing twice
		for _, m := range []tasks.Message{tasks.WithdrawalRejectedMessage(single.ID), tasks.BatchRejectedMessage(nb.ID)} {
			if err := w.notifyDecision(ctx, asynq.NewTask(m.Type, m.Payload)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := h.postbackCount(single.ID, "FAILED"); n != 1 {
		t.Fatalf("the expired withdrawal has %d FAILED postbacks", n)
	}
	for _, it := range nb.Items {
		if n := h.postbackCount(it.ID, "FAILED"); n != 1 {
			t.Fatalf("item %s has %d FAILED postbacks", it.ID, n)
		}
	}
	if n := h.postbackCount(nb.ID, "REJECTED"); n != 1 {
		t.Fatalf("the expired batch has %d REJECTED postbacks", n)
	}

	// A batch sent, its items final: finished once, with one postback.
	sent := storage.NewWithdrawalBatch{ID: uuid.Must(uuid.NewV7()), IntegratorID: h.integrator.ID, ExternalID: "lote-pago",
		RequestHash: []byte("h"), PostbackURL: &url}
	for i := range 2 {
		it := h.heldWithdrawal(url, past)
		it.ApprovalExpiresAt, it.Outbox = nil, []storage.OutboxMessage{{Type: tasks.TypeWithdrawalSend, ID: fmt.Sprint("s-", i, it.ID), Payload: []byte(`{}`)}}
		sent.Items = append(sent.Items, it)
	}
	if _, _, err := h.db.CreateWithdrawalBatch(ctx, sent); err != nil {
		t.Fatal(err)
	}
	for _, it := range sent.Items {
		if err := h.db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, storage.KindWithdrawal, it.ID, storage.Settlement{PixID: "p-" + it.ID.String(), At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err := w.finishBatches(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := h.db.WithdrawalBatch(ctx, sent.ID); err != nil || b.Status != storage.BatchCompleted || b.Completed != 2 {
		t.Fatalf("finished batch: %+v %v", b, err)
	}
	if n := h.postbackCount(sent.ID, "COMPLETED"); n != 1 {
		t.Fatalf("the finished batch has %d postbacks", n)
	}
	h.auditClean()
}
