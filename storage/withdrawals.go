package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// NewWithdrawal is a validated withdrawal request. The caller chooses the id
// (a UUIDv7) so it can name the outbox message that sends it.
type NewWithdrawal struct {
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   *string
	Amount       money.Money
	Fee          money.Money
	CreditParty  CreditParty
	Description  *string
	PostbackURL  *string
	// RequestHash fingerprints the request, so a replay with the same
	// external_id can be told from a different request reusing it.
	RequestHash []byte
	Outbox      []OutboxMessage
	// Provider is the provider the withdrawal is sent through; "" is
	// DefaultProvider.
	Provider string
	// TraceParent is the W3C traceparent of the span that writes it, ""
	// when tracing is off (see Transfer.TraceParent).
	TraceParent string
	// DueAt is when it is due (see DueAt), nil when no deadline applies.
	DueAt *time.Time
	// CreatedByKey is the API key that creates it (0: none, such as a
	// command's): the one key that may not approve it.
	CreatedByKey int64
	// ApprovalExpiresAt, when set, holds the withdrawal AWAITING_APPROVAL
	// until then (see ApprovalRule): its money is reserved as any
	// withdrawal's, and Outbox must be empty, as nothing is sent before
	// its approval.
	ApprovalExpiresAt *time.Time
}

// Held is nw held for approval until expires (nil: not held): awaiting
// approval, it sends nothing until approved.
func (nw NewWithdrawal) Held(expires *time.Time) NewWithdrawal {
	if expires != nil {
		nw.ApprovalExpiresAt, nw.Outbox = expires, nil
	}
	return nw
}

// status is the status it is created with.
func (nw NewWithdrawal) status() TransferStatus {
	if nw.ApprovalExpiresAt != nil {
		return TransferAwaitingApproval
	}
	return TransferProcessing
}

// ErrIdempotencyConflict: the external_id was used before with a different request.
var ErrIdempotencyConflict = errors.New("external_id already used with a different request")

// createWithdrawalSQL is a whole withdrawal create in one statement (see
// transferCreateSQL), so one round trip: alone, it is its own implicit
// transaction, committed before its answer is read.
var createWithdrawalSQL = transferCreateSQL(`INSERT INTO withdrawals (id, integrator_id, external_id, request_hash, amount, fee, status,
      credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, description, postback_url, provider, trace_parent,
      created_by_key, approval_expires_at, due_at, due_near_at)
  SELECT $11::uuid, $12::bigint, $13::text, $14::bytea, $15::bigint, $16::bigint, $25::text,
      $17::text, $18::text, $19::text, $20::text, $21::text, $22::text, coalesce(nullif($23::text, ''), 'default'), nullif($24::text, ''),
      nullif($26::bigint, 0), $27::timestamptz, $28::timestamptz, $29::timestamptz`, "")

// CreateWithdrawal reserves amount + fee from the integrator's available
// balance, inserts the withdrawal PROCESSING (AWAITING_APPROVAL when
// nw.ApprovalExpiresAt is set) and its outbox messages, all in
// one SQL statement, committed when it returns (with others' when the
// group commit is on: see GroupCommit). A replay (same external_id,
// same request) returns the existing withdrawal with created false and
// changes nothing. It fails with ledger.ErrInsufficientFunds (nothing
// changed) or ErrIdempotencyConflict.
func (db *DB) CreateWithdrawal(ctx context.Context, nw NewWithdrawal) (w Transfer, created bool, err error) {
	args, err := createWithdrawalArgs(nw)
	if err != nil {
		return Transfer{}, false, err
	}
	w = Transfer{Kind: KindWithdrawal, ID: nw.ID, IntegratorID: nw.IntegratorID, ExternalID: nw.ExternalID, Amount: nw.Amount, Fee: nw.Fee,
		Status: nw.status(), CreditParty: nw.CreditParty, Description: nw.Description, PostbackURL: nw.PostbackURL,
		Provider: cmp.Or(nw.Provider, DefaultProvider), TraceParent: nw.TraceParent, DueAt: nw.DueAt}
	wrote, err := db.insertWithdrawal(ctx, nw.IntegratorID, args, &w.CreatedAt, &w.UpdatedAt)
	if err != nil && !ledger.IsRefusal(err) {
		return Transfer{}, false, fmt.Errorf("storage: create withdrawal: %w", err)
	}
	if !wrote {
		w, err = notCreated(ctx, db.pool, KindWithdrawal, nw.IntegratorID, nw.ExternalID, nw.RequestHash, err)
		return w, false, err
	}
	db.afterCommit(ctx, nw.Outbox)
	return w, true, nil
}

// insertWithdrawal runs a withdrawal create's statement
// (createWithdrawalSQL) and reads its answer (see transferCreated): in a
// batch of the group commit when it is on (insertWithdrawalInGroup),
// otherwise alone, its own implicit transaction.
func (db *DB) insertWithdrawal(ctx context.Context, integratorID int64, args []any, createdAt, updatedAt *time.Time) (bool, error) {
	if grouped, wrote, err := db.insertWithdrawalInGroup(ctx, integratorID, args, createdAt, updatedAt); grouped {
		return wrote, err
	}
	return transferCreated(db.pool.QueryRow(ctx, createWithdrawalSQL, args...), createdAt, updatedAt)
}

// createWithdrawalArgs are createWithdrawalSQL's arguments for nw.
func createWithdrawalArgs(nw NewWithdrawal) ([]any, error) {
	reserve := withdrawalCreated(nw.ID, nw.IntegratorID, nw.Amount, nw.Fee)
	if err := reserve.Validate(); err != nil {
		return nil, err
	}
	return transferCreateArgs(reserve, nw.Outbox, nw.ID, nw.IntegratorID, nw.ExternalID, nw.RequestHash, nw.Amount, nw.Fee,
		nw.CreditParty.Name, nw.CreditParty.KeyType, nw.CreditParty.Key, nw.CreditParty.TaxID, nw.Description, nw.PostbackURL, nw.Provider, nw.TraceParent,
		string(nw.status()), nw.CreatedByKey, nw.ApprovalExpiresAt, nw.DueAt, nearAt(nw.DueAt)), nil
}
