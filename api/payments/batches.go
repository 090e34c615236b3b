package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

// BatchRequest is a validated batch of withdrawals: every item valid, no
// external_id twice.
type BatchRequest struct {
	ExternalID  string
	PostbackURL *string
	Items       []WithdrawalRequest
	// CreatedBy is the id of the API key that asks.
	CreatedBy int64
}

// Total is the sum of the items' amounts, which the approval rule judges.
func (r BatchRequest) Total() money.Money {
	var t money.Money
	for _, it := range r.Items {
		t += it.Amount
	}
	return t
}

// fingerprint hashes the batch's request: its external_id, postbackUrl
// and every item's own fingerprint, in order.
func (r BatchRequest) fingerprint() []byte {
	items := make([][]byte, len(r.Items))
	for i, it := range r.Items {
		items[i] = it.fingerprint()
	}
	return fingerprint(struct {
		Kind        string   `json:"k"`
		ExternalID  string   `json:"e"`
		PostbackURL *string  `json:"u"`
		Items       [][]byte `json:"i"`
	}{"withdrawal_batch/v1", r.ExternalID, r.PostbackURL, items})
}

// ErrBatchSameHolder: a same-holder integrator's withdrawals each need
// their recipient looked up before they are created, which a batch of
// thousands cannot wait for.
var ErrBatchSameHolder = &RuleError{Rule: ErrNotSameHolder, Field: "items",
	Detail: "cannot be sent as a batch by a same-holder account: each withdrawal's recipient is checked when it is created; send them one by one"}

// CreateBatch reserves and creates a batch of withdrawals in one SQL
// transaction (storage.CreateWithdrawalBatch): all of them or none. The
// batch awaits approval, nothing sent, when the integrator's rule holds
// its total; otherwise every item's send is in the outbox when this
// returns. created is false for a replay.
func (s *Service) CreateBatch(ctx context.Context, in storage.Integrator, r BatchRequest) (storage.WithdrawalBatch, bool, error) {
	if s.approvals == nil {
		return storage.WithdrawalBatch{}, false, storage.ErrNotFound
	}
	if in.SameHolder {
		return storage.WithdrawalBatch{}, false, ErrBatchSameHolder
	}
	provider, err := s.batchProvider(ctx, in.ID, r.Items)
	if err != nil {
		return storage.WithdrawalBatch{}, false, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return storage.WithdrawalBatch{}, false, fmt.Errorf("batch id: %w", err)
	}
	nb := storage.NewWithdrawalBatch{ID: id, IntegratorID: in.ID, ExternalID: r.ExternalID, RequestHash: r.fingerprint(),
		PostbackURL: r.PostbackURL, CreatedByKey: r.CreatedBy, ApprovalExpiresAt: s.approvalExpiry(in, r.Total()),
		Provider: provider, TraceParent: tasks.TraceParent(ctx), Items: make([]storage.NewWithdrawal, len(r.Items))}
	for i, it := range r.Items {
		item, err := uuid.NewV7()
		if err != nil {
			return storage.WithdrawalBatch{}, false, fmt.Errorf("withdrawal id: %w", err)
		}
		nb.Items[i] = storage.NewWithdrawal{ID: item, IntegratorID: in.ID, ExternalID: it.ExternalID, Amount: it.Amount,
			Fee: in.CashOut.Compute(it.Amount), CreditParty: it.CreditParty, Description: it.Description, PostbackURL: it.PostbackURL,
			RequestHash: it.fingerprint(), DueAt: dueAt(it.DueAt, in.PayoutDeadline, s.cfg.Now()), Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(item, 0))}}
	}
	return s.approvals.CreateWithdrawalBatch(ctx, nb)
}

// batchProvider is the provider a batch's items are first sent to: the
// one withdrawalProvider chooses for its largest item, so that its per-PIX
// limit takes every item. An item above every provider's limit is refused
// by name (items[i].amount), nothing reserved.
func (s *Service) batchProvider(ctx context.Context, integratorID int64, items []WithdrawalRequest) (string, error) {
	largest := 0
	for i, it := range items {
		if it.Amount > items[largest].Amount {
			largest = i
		}
	}
	provider, err := s.withdrawalProvider(ctx, integratorID, items[largest].Amount)
	var rule *RuleError
	if errors.As(err, &rule) && rule.Field == "amount" {
		named := *rule
		named.Field = fmt.Sprintf("items[%d].amount", largest)
		return "", &named
	}
	return provider, err
}

// BatchItems is a page of the integrator's batch's items (p.BatchID).
func (s *Service) BatchItems(ctx context.Context, p storage.ListParams) ([]storage.Transfer, bool, error) {
	return s.store.ListTransfers(ctx, storage.KindWithdrawal, p)
}
