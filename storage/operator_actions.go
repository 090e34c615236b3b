package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// OperatorAction is what an operator did by hand, and why: the audit trail
// of manual changes.
type OperatorAction struct {
	ID           int64     `json:"id"`
	Operator     string    `json:"operator"`
	Action       string    `json:"action"` // e.g. "withdrawal.settle", "refund.fail"
	ResourceType string    `json:"resource_type"`
	ResourceID   uuid.UUID `json:"resource_id"`
	Reason       string    `json:"reason"`
	// LedgerReference names the posting the action made ("" for none); the
	// stored row links that ledger transaction.
	LedgerReference     string    `json:"-"`
	LedgerTransactionID *int64    `json:"ledger_transaction_id"`
	CreatedAt           time.Time `json:"created_at"`
}

// RecordOperatorAction writes an action in this transaction, the one that
// makes the change, so the change and its record exist together or not at
// all. It returns the action as stored.
func (t *Tx) RecordOperatorAction(ctx context.Context, a OperatorAction) (OperatorAction, error) {
	rows, _ := t.tx.Query(ctx, `INSERT INTO operator_actions (operator, action, resource_type, resource_id, reason, ledger_transaction_id)
		VALUES ($1, $2, $3, $4, $5, (SELECT id FROM ledger_transactions WHERE reference = $6))
		RETURNING `+operatorActionColumns, a.Operator, a.Action, a.ResourceType, a.ResourceID, a.Reason, a.LedgerReference)
	stored, err := pgx.CollectExactlyOneRow(rows, scanOperatorAction)
	if err != nil {
		return OperatorAction{}, fmt.Errorf("storage: record operator action: %w", err)
	}
	return stored, nil
}

// OperatorActions lists what operators did to one record, oldest first.
func (db *DB) OperatorActions(ctx context.Context, resourceID uuid.UUID) ([]OperatorAction, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+operatorActionColumns+` FROM operator_actions WHERE resource_id = $1 ORDER BY id`, resourceID)
	return pgx.CollectRows(rows, scanOperatorAction)
}

const operatorActionColumns = `id, operator, action, resource_type, resource_id, reason, ledger_transaction_id, created_at`

func scanOperatorAction(r pgx.CollectableRow) (OperatorAction, error) {
	var a OperatorAction
	err := r.Scan(&a.ID, &a.Operator, &a.Action, &a.ResourceType, &a.ResourceID, &a.Reason, &a.LedgerTransactionID, &a.CreatedAt)
	return a, err
}
