package worker

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// approvalStore is the withdrawals and batches awaiting approval that the
// worker expires, the batches it finishes, and what it reads to post
// their postbacks. *storage.DB is one; the decision tests' fakes are not,
// and a worker without one skips these steps.
type approvalStore interface {
	ExpiredApprovals(ctx context.Context, limit int) ([]storage.ExpiredApproval, error)
	ExpireWithdrawalApproval(ctx context.Context, integratorID int64, id uuid.UUID, notify storage.OutboxMessage) (storage.Transfer, error)
	ExpireBatchApproval(ctx context.Context, integratorID int64, id uuid.UUID, notify storage.OutboxMessage) (storage.WithdrawalBatch, error)
	FinishBatches(ctx context.Context, limit int, postback func(storage.WithdrawalBatch) (storage.NewPostback, bool)) ([]storage.WithdrawalBatch, error)
	WithdrawalBatch(ctx context.Context, id uuid.UUID) (storage.WithdrawalBatch, error)
	BatchItemsAfter(ctx context.Context, batchID, after uuid.UUID, limit int) ([]storage.Transfer, error)
}

// postbacksPerTx is how many items' postbacks one transaction writes when
// a rejected batch's are posted.
const postbacksPerTx = 500

// expireApprovals rejects, as approval_expired, the withdrawals and
// batches still awaiting approval past their expiry (each once: a
// decision that won meanwhile leaves it alone).
func (w *Worker) expireApprovals(ctx context.Context, _ int64) error {
	if w.approvals == nil {
		return nil
	}
	expired, err := w.approvals.ExpiredApprovals(ctx, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, "approvals", expired, func(e storage.ExpiredApproval) string { return e.ID.String() },
		func(e storage.ExpiredApproval) error {
			var err error
			if e.Batch {
				_, err = w.approvals.ExpireBatchApproval(ctx, e.IntegratorID, e.ID, storage.OutboxMessage(tasks.BatchRejectedMessage(e.ID)))
			} else {
				_, err = w.approvals.ExpireWithdrawalApproval(ctx, e.IntegratorID, e.ID, storage.OutboxMessage(tasks.WithdrawalRejectedMessage(e.ID)))
			}
			if errors.Is(err, storage.ErrNotAwaitingApproval) {
				return nil
			}
			return err
		})
}

// finishBatches marks COMPLETED the batches whose items are all final,
// each with its one PAYMENT_BATCH postback.
func (w *Worker) finishBatches(ctx context.Context, _ int64) error {
	if w.approvals == nil {
		return nil
	}
	_, err := w.approvals.FinishBatches(ctx, w.cfg.Reconcile.Batch, func(b storage.WithdrawalBatch) (storage.NewPostback, bool) {
		return tracedPostback(ctx, optional(postback.ForBatch(b)))
	})
	return err
}

// tracedPostback is the storage record of ev, its delivery in ctx's
// trace; false when ev is nil.
func tracedPostback(ctx context.Context, ev *postback.Event) (storage.NewPostback, bool) {
	if ev == nil {
		return storage.NewPostback{}, false
	}
	p := postback.NewPostback(*ev)
	p.Outbox = storage.OutboxMessage(tasks.Traced(ctx, tasks.Message(p.Outbox)))
	return p, true
}

// notifyDecision posts the postbacks of a rejected (or expired)
// withdrawal, or of a rejected batch: each item's FAILED one, then the
// batch's REJECTED one. Each postback is written once (a resource reports
// each status once), so a task run twice posts nothing twice.
func (w *Worker) notifyDecision(ctx context.Context, t *asynq.Task) error {
	var p tasks.WithdrawalDecided
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	if w.approvals == nil {
		return errors.New("worker: no approval store")
	}
	switch {
	case p.WithdrawalID != nil:
		wd, err := w.transfers.TransferByID(ctx, storage.KindWithdrawal, *p.WithdrawalID)
		if err != nil {
			return err
		}
		return w.tx.InTx(ctx, func(tx Tx) error { return writePostback(ctx, tx, transferPostback(wd)) })
	case p.BatchID != nil:
		return w.notifyBatch(ctx, *p.BatchID)
	}
	return nil
}

// notifyBatch posts a finished batch's items' postbacks, a page per
// transaction, then the batch's.
func (w *Worker) notifyBatch(ctx context.Context, id uuid.UUID) error {
	b, err := w.approvals.WithdrawalBatch(ctx, id)
	if err != nil {
		return err
	}
	for after := uuid.Nil; ; {
		items, err := w.approvals.BatchItemsAfter(ctx, id, after, postbacksPerTx)
		if err != nil || len(items) == 0 {
			if err != nil {
				return err
			}
			break
		}
		if err := w.tx.InTx(ctx, func(tx Tx) error {
			for _, it := range items {
				if err := writePostback(ctx, tx, transferPostback(it)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		after = items[len(items)-1].ID
	}
	return w.tx.InTx(ctx, func(tx Tx) error { return writePostback(ctx, tx, optional(postback.ForBatch(b))) })
}
