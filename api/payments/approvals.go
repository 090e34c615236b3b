package payments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// ApprovalStore is the part of storage the batches and the approvals use;
// *storage.DB is one.
type ApprovalStore interface {
	CreateWithdrawalBatch(ctx context.Context, nb storage.NewWithdrawalBatch) (storage.WithdrawalBatch, bool, error)
	WithdrawalBatchByID(ctx context.Context, integratorID int64, ref string) (storage.WithdrawalBatch, error)
	ApproveWithdrawal(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, send storage.OutboxMessage) (storage.Transfer, error)
	RejectWithdrawal(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, reason string, notify storage.OutboxMessage) (storage.Transfer, error)
	ApproveBatch(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, send func(uuid.UUID) storage.OutboxMessage) (storage.WithdrawalBatch, error)
	RejectBatch(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, reason string, notify storage.OutboxMessage) (storage.WithdrawalBatch, error)
}

// approvalExpiry is when a new withdrawal or batch of amount (a batch's
// total) stops waiting for approval, nil when the integrator's rule does
// not hold it.
func (s *Service) approvalExpiry(in storage.Integrator, amount money.Money) *time.Time {
	if !in.Approval.Holds(amount) {
		return nil
	}
	expiry := in.Approval.Expiry
	if expiry <= 0 {
		expiry = storage.DefaultApprovalExpiry
	}
	at := s.cfg.Now().Add(expiry)
	return &at
}

// Decision is a key's approval or rejection of a withdrawal or a batch.
type Decision struct {
	// Ref is the withdrawal's or the batch's id, or its external_id.
	Ref string
	// KeyID is the deciding key: never the one that created it.
	KeyID int64
	// Reason is a rejection's, "" for none.
	Reason string
}

// ApproveWithdrawal approves the integrator's withdrawal awaiting
// approval: it is PROCESSING and its send is in the outbox when this
// returns.
func (s *Service) ApproveWithdrawal(ctx context.Context, in storage.Integrator, d Decision) (storage.Transfer, error) {
	w, err := s.decidable(ctx, in, d)
	if err != nil {
		return storage.Transfer{}, err
	}
	return s.approvals.ApproveWithdrawal(ctx, in.ID, w.ID, d.KeyID, storage.OutboxMessage(tasks.Traced(ctx, tasks.WithdrawalSendMessage(w.ID, 0))))
}

// RejectWithdrawal rejects the integrator's withdrawal awaiting approval:
// FAILED, its reservation back in the available balance.
func (s *Service) RejectWithdrawal(ctx context.Context, in storage.Integrator, d Decision) (storage.Transfer, error) {
	w, err := s.decidable(ctx, in, d)
	if err != nil {
		return storage.Transfer{}, err
	}
	return s.approvals.RejectWithdrawal(ctx, in.ID, w.ID, d.KeyID, d.Reason, storage.OutboxMessage(tasks.WithdrawalRejectedMessage(w.ID)))
}

// decidable finds the withdrawal a decision names.
func (s *Service) decidable(ctx context.Context, in storage.Integrator, d Decision) (storage.Transfer, error) {
	if s.approvals == nil {
		return storage.Transfer{}, storage.ErrNotFound
	}
	return s.store.Transfer(ctx, storage.KindWithdrawal, in.ID, d.Ref)
}

// ApproveBatch approves the integrator's batch awaiting approval: it and
// its items are PROCESSING, every item's send in the outbox.
func (s *Service) ApproveBatch(ctx context.Context, in storage.Integrator, d Decision) (storage.WithdrawalBatch, error) {
	b, err := s.Batch(ctx, in, d.Ref)
	if err != nil {
		return storage.WithdrawalBatch{}, err
	}
	return s.approvals.ApproveBatch(ctx, in.ID, b.ID, d.KeyID, func(id uuid.UUID) storage.OutboxMessage {
		return storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))
	})
}

// RejectBatch rejects the integrator's batch awaiting approval: REJECTED,
// its items FAILED, their whole reservation back in the available
// balance.
func (s *Service) RejectBatch(ctx context.Context, in storage.Integrator, d Decision) (storage.WithdrawalBatch, error) {
	b, err := s.Batch(ctx, in, d.Ref)
	if err != nil {
		return storage.WithdrawalBatch{}, err
	}
	return s.approvals.RejectBatch(ctx, in.ID, b.ID, d.KeyID, d.Reason, storage.OutboxMessage(tasks.BatchRejectedMessage(b.ID)))
}

// Batch finds the integrator's batch by id or external_id.
func (s *Service) Batch(ctx context.Context, in storage.Integrator, ref string) (storage.WithdrawalBatch, error) {
	if s.approvals == nil {
		return storage.WithdrawalBatch{}, storage.ErrNotFound
	}
	return s.approvals.WithdrawalBatchByID(ctx, in.ID, ref)
}
