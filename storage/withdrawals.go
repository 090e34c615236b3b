package storage

import (
	"bytes"
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
	ID            uuid.UUID
	IntegratorID  int64
	ExternalID    *string
	Amount        money.Money
	Fee           money.Money
	Status        string
	CreditParty   CreditParty
	Description   *string
	PostbackURL   *string
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

// CreateWithdrawal reserves amount + fee from the integrator's available
// balance, inserts the withdrawal PROCESSING and its outbox messages, all in
// one SQL transaction. A replay (same external_id, same request) returns the
// existing withdrawal with created false and changes nothing. It fails with
// ledger.ErrInsufficientFunds (nothing changed) or ErrIdempotencyConflict.
func (db *DB) CreateWithdrawal(ctx context.Context, nw NewWithdrawal) (w Withdrawal, created bool, err error) {
	err = db.inTx(ctx, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `INSERT INTO withdrawals (id, integrator_id, external_id, request_hash, amount, fee, status,
				credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, description, postback_url)
			VALUES ($1, $2, $3, $4, $5, $6, 'PROCESSING', $7, $8, $9, $10, $11, $12)
			ON CONFLICT (integrator_id, external_id) DO NOTHING RETURNING `+withdrawalColumns,
			nw.ID, nw.IntegratorID, nw.ExternalID, nw.RequestHash, nw.Amount, nw.Fee,
			nw.CreditParty.Name, nw.CreditParty.KeyType, nw.CreditParty.Key, nw.CreditParty.TaxID, nw.Description, nw.PostbackURL)
		inserted, err := pgx.CollectRows(rows, scanWithdrawal)
		if err != nil {
			return fmt.Errorf("storage: insert withdrawal: %w", err)
		}
		if len(inserted) == 0 { // the external_id exists: a replay or a conflict
			w, err = replayedWithdrawal(ctx, tx, nw)
			return err
		}
		w, created = inserted[0], true
		if err := writeOutbox(ctx, tx, nw.Outbox...); err != nil {
			return err
		}
		// The posting comes last: it locks the wallet's rows, and they stay
		// locked only for the posting and the commit.
		total := nw.Amount + nw.Fee
		_, err = ledger.Post(ctx, tx, ledger.Transaction{
			Reference: "withdrawal:" + nw.ID.String() + ":reserve",
			Kind:      "withdrawal.reserve",
			Entries: []ledger.Entry{
				{Account: ledger.Of(nw.IntegratorID, ledger.Available), Amount: -total},
				{Account: ledger.Of(nw.IntegratorID, ledger.Reserved), Amount: total},
			},
		})
		return err
	})
	return w, created, err
}

// replayedWithdrawal returns the withdrawal that already holds nw's
// external_id when nw is the same request, ErrIdempotencyConflict otherwise.
func replayedWithdrawal(ctx context.Context, tx pgx.Tx, nw NewWithdrawal) (Withdrawal, error) {
	var hash []byte
	if err := tx.QueryRow(ctx, `SELECT request_hash FROM withdrawals WHERE integrator_id = $1 AND external_id = $2`,
		nw.IntegratorID, nw.ExternalID).Scan(&hash); err != nil {
		return Withdrawal{}, fmt.Errorf("storage: find withdrawal: %w", err)
	}
	if !bytes.Equal(hash, nw.RequestHash) {
		return Withdrawal{}, ErrIdempotencyConflict
	}
	return getWithdrawal(ctx, tx, nw.IntegratorID, *nw.ExternalID)
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
