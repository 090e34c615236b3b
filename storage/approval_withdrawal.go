package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// A withdrawal AWAITING_APPROVAL leaves it once: each way out (approval,
// rejection, expiry) is a guarded update (WHERE status =
// 'AWAITING_APPROVAL'), so of approvals, rejections and expiries racing on
// one withdrawal exactly one changes it and moves its money; the others
// get ErrNotAwaitingApproval and write nothing.

// Rejection reasons recorded as failure_reason.
const (
	// ReasonApprovalExpired: nobody approved or rejected it in time.
	ReasonApprovalExpired = "approval_expired"
	// rejectedPrefix starts a rejection's failure_reason, before the
	// rejecting key's reason.
	rejectedPrefix = "rejected"
)

// RejectionReason is the failure_reason of a withdrawal rejected with
// reason ("rejected", or "rejected: <reason>").
func RejectionReason(reason string) string {
	if reason == "" {
		return rejectedPrefix
	}
	return rejectedPrefix + ": " + reason
}

// ApproveWithdrawal moves the integrator's withdrawal id from
// AWAITING_APPROVAL to PROCESSING and writes send, the outbox message that
// sends it, in the same transaction. keyID is the approving key: the key
// that created the withdrawal may not (ErrSelfApproval). A withdrawal of a
// batch is approved with its batch. ErrNotAwaitingApproval when it is not
// waiting, ErrNotFound when the integrator has no such withdrawal.
func (db *DB) ApproveWithdrawal(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, send OutboxMessage) (Transfer, error) {
	var w Transfer
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		w, err = decideWithdrawal(ctx, tx, integratorID, id, keyID, `status = 'PROCESSING', updated_at = now()`)
		if err != nil {
			return err
		}
		return writeOutbox(ctx, tx, send)
	})
	return w, err
}

// RejectWithdrawal moves the integrator's withdrawal id from
// AWAITING_APPROVAL to FAILED, its failure_reason RejectionReason(reason),
// returns its reservation to the available balance (withdrawalRejected)
// and writes notify, the outbox message that posts its postback, all in
// one transaction. keyID is the rejecting key, which may not be the one
// that created it; errors as ApproveWithdrawal's.
func (db *DB) RejectWithdrawal(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, reason string, notify OutboxMessage) (Transfer, error) {
	return db.rejectWithdrawal(ctx, integratorID, id, keyID, RejectionReason(reason), notify)
}

// ExpireWithdrawalApproval rejects the withdrawal id as approval_expired
// when it is still awaiting approval past its expiry; ErrNotAwaitingApproval
// otherwise.
func (db *DB) ExpireWithdrawalApproval(ctx context.Context, integratorID int64, id uuid.UUID, notify OutboxMessage) (Transfer, error) {
	return db.rejectWithdrawal(ctx, integratorID, id, 0, ReasonApprovalExpired, notify)
}

// rejectWithdrawal is a rejection by keyID, or the expiry when keyID is 0.
func (db *DB) rejectWithdrawal(ctx context.Context, integratorID int64, id uuid.UUID, keyID int64, failure string, notify OutboxMessage) (Transfer, error) {
	var w Transfer
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		w, err = decideWithdrawal(ctx, tx, integratorID, id, keyID,
			`status = 'FAILED', failure_reason = $4, updated_at = now(), finished_at = now()`, failure)
		if err != nil {
			return err
		}
		if _, err := (&Tx{tx: tx}).Post(ctx, withdrawalRejected(w.ID, w.IntegratorID, w.Amount, w.Fee, failure)); err != nil {
			return fmt.Errorf("storage: reject withdrawal %s: %w", id, err)
		}
		return writeOutbox(ctx, tx, notify)
	})
	return w, err
}

// decideWithdrawal sets set on the withdrawal if it is a lone one awaiting
// approval that keyID did not create ($1 id, $2 integrator, $3 key, args
// from $4); keyID 0 is the expiry, which only takes one past its expiry.
func decideWithdrawal(ctx context.Context, tx pgx.Tx, integratorID int64, id uuid.UUID, keyID int64, set string, args ...any) (Transfer, error) {
	rows, _ := tx.Query(ctx, `UPDATE withdrawals SET `+set+`
		WHERE id = $1 AND integrator_id = $2 AND status = 'AWAITING_APPROVAL' AND batch_id IS NULL
		  AND `+decidable(set)+`
		RETURNING `+KindWithdrawal.columns(), append([]any{id, integratorID, keyID}, args...)...)
	w, err := pgx.CollectExactlyOneRow(rows, KindWithdrawal.scan)
	if !errors.Is(err, pgx.ErrNoRows) {
		return w, err
	}
	var (
		status  TransferStatus
		creator *int64
	)
	err = tx.QueryRow(ctx, `SELECT status, created_by_key FROM withdrawals WHERE id = $1 AND integrator_id = $2`, id, integratorID).Scan(&status, &creator)
	switch {
	case err != nil:
		return Transfer{}, notFound(err)
	case status == TransferAwaitingApproval && keyID != 0 && creator != nil && *creator == keyID:
		return Transfer{}, ErrSelfApproval
	}
	return Transfer{}, ErrNotAwaitingApproval
}

// decidable is the condition under which a decision ($3, the deciding
// key; 0 for the expiry) applies to a row awaiting approval: the expiry
// once it is past its approval_expires_at; a key's decision when it did
// not create the row, and an approval only before it expired (a late
// approval is refused even before the reconciler expired it).
func decidable(set string) string {
	approve := strings.HasPrefix(set, "status = 'PROCESSING'")
	cond := `CASE WHEN $3::bigint = 0 THEN approval_expires_at <= now() ELSE created_by_key IS DISTINCT FROM $3`
	if approve {
		cond += ` AND approval_expires_at > now()`
	}
	return cond + ` END`
}

// ExpiredApproval is a withdrawal or a batch whose approval expired.
type ExpiredApproval struct {
	Batch        bool
	ID           uuid.UUID
	IntegratorID int64
}

// ExpiredApprovals lists up to limit lone withdrawals and batches still
// awaiting approval past their expiry, the longest expired first.
func (db *DB) ExpiredApprovals(ctx context.Context, limit int) ([]ExpiredApproval, error) {
	rows, _ := db.pool.Query(ctx, `(SELECT false, id, integrator_id, approval_expires_at FROM withdrawals
			WHERE status = 'AWAITING_APPROVAL' AND batch_id IS NULL AND approval_expires_at <= now() ORDER BY approval_expires_at LIMIT $1)
		UNION ALL
		(SELECT true, id, integrator_id, approval_expires_at FROM withdrawal_batches
			WHERE status = 'AWAITING_APPROVAL' AND approval_expires_at <= now() ORDER BY approval_expires_at LIMIT $1)
		ORDER BY 4 LIMIT $1`, limit)
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ExpiredApproval, error) {
		var (
			e ExpiredApproval
			x any
		)
		err := r.Scan(&e.Batch, &e.ID, &e.IntegratorID, &x)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: expired approvals: %w", err)
	}
	return list, nil
}
