package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// Withdrawal statuses.
const (
	WithdrawalProcessing = "PROCESSING"
	WithdrawalCompleted  = "COMPLETED"
	WithdrawalFailed     = "FAILED"
)

// CreditParty is the recipient of a withdrawal.
type CreditParty struct {
	Name    string `json:"name"`
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	TaxID   string `json:"taxId"`
}

// Withdrawal is a PIX sent from an integrator's wallet.
type Withdrawal struct {
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   *string
	Amount       money.Money
	Fee          money.Money
	Status       string
	CreditParty  CreditParty
	Description  *string
	PostbackURL  *string
	// PixID is the provider's transactionId, once the provider accepted the
	// payment. Integrators know the withdrawal by PublicPixID.
	PixID         *string
	EndToEndID    *string
	FailureReason *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	FinishedAt    *time.Time
}

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
}

// ErrIdempotencyConflict: the external_id was used before with a different request.
var ErrIdempotencyConflict = errors.New("external_id already used with a different request")

// createWithdrawalSQL is a whole withdrawal create in one statement (see
// transferCreateSQL), so one round trip: alone, it is its own implicit
// transaction, committed before its answer is read.
var createWithdrawalSQL = transferCreateSQL(`INSERT INTO withdrawals (id, integrator_id, external_id, request_hash, amount, fee, status,
      credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, description, postback_url)
  SELECT $10::uuid, $11::bigint, $12::text, $13::bytea, $14::bigint, $15::bigint, 'PROCESSING',
      $16::text, $17::text, $18::text, $19::text, $20::text, $21::text`, "")

// CreateWithdrawal reserves amount + fee from the integrator's available
// balance, inserts the withdrawal PROCESSING and its outbox messages, all in
// one SQL statement, committed when it returns (with others' when the
// group commit is on: see GroupCommit). A replay (same external_id,
// same request) returns the existing withdrawal with created false and
// changes nothing. It fails with ledger.ErrInsufficientFunds (nothing
// changed) or ErrIdempotencyConflict.
func (db *DB) CreateWithdrawal(ctx context.Context, nw NewWithdrawal) (w Withdrawal, created bool, err error) {
	args, err := createWithdrawalArgs(nw)
	if err != nil {
		return Withdrawal{}, false, err
	}
	w = Withdrawal{ID: nw.ID, IntegratorID: nw.IntegratorID, ExternalID: nw.ExternalID, Amount: nw.Amount, Fee: nw.Fee,
		Status: WithdrawalProcessing, CreditParty: nw.CreditParty, Description: nw.Description, PostbackURL: nw.PostbackURL}
	wrote, err := db.createWithdrawal(ctx, nw.IntegratorID, args, &w.CreatedAt, &w.UpdatedAt)
	if err != nil && !ledger.IsRefusal(err) {
		return Withdrawal{}, false, fmt.Errorf("storage: create withdrawal: %w", err)
	}
	if !wrote {
		w, err = notCreated(ctx, db.pool, withdrawalTransfers, nw.IntegratorID, nw.ExternalID, nw.RequestHash, err)
		return w, false, err
	}
	if len(nw.Outbox) > 0 {
		db.notifier.poke()
	}
	return w, true, nil
}

// createWithdrawalArgs are createWithdrawalSQL's arguments for nw.
func createWithdrawalArgs(nw NewWithdrawal) ([]any, error) {
	reserve := reservation(withdrawalTransfers, nw.ID, nw.IntegratorID, nw.Amount+nw.Fee)
	if err := reserve.Validate(); err != nil {
		return nil, err
	}
	return transferCreateArgs(reserve, nw.Outbox, nw.ID, nw.IntegratorID, nw.ExternalID, nw.RequestHash, nw.Amount, nw.Fee,
		nw.CreditParty.Name, nw.CreditParty.KeyType, nw.CreditParty.Key, nw.CreditParty.TaxID, nw.Description, nw.PostbackURL), nil
}

const withdrawalColumns = `id, integrator_id, external_id, amount, fee, status,
	credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id,
	description, postback_url, pix_id, end_to_end_id, failure_reason, created_at, updated_at, finished_at`

func scanWithdrawal(r pgx.CollectableRow) (Withdrawal, error) {
	var w Withdrawal
	err := r.Scan(&w.ID, &w.IntegratorID, &w.ExternalID, &w.Amount, &w.Fee, &w.Status,
		&w.CreditParty.Name, &w.CreditParty.KeyType, &w.CreditParty.Key, &w.CreditParty.TaxID,
		&w.Description, &w.PostbackURL, &w.PixID, &w.EndToEndID, &w.FailureReason, &w.CreatedAt, &w.UpdatedAt, &w.FinishedAt)
	return w, err
}

// Withdrawal returns one of the integrator's withdrawals by its UUID or its
// external_id; ErrNotFound otherwise (including another integrator's).
func (db *DB) Withdrawal(ctx context.Context, integratorID int64, ref string) (Withdrawal, error) {
	return getWithdrawal(ctx, db.pool, integratorID, ref)
}

func getWithdrawal(ctx context.Context, q ledger.Querier, integratorID int64, ref string) (Withdrawal, error) {
	return findByRef(ctx, q, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE integrator_id = $1`, scanWithdrawal, integratorID, ref)
}
