package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// RecurrenceIssue is what the provider answered when it registered a
// recurrence.
type RecurrenceIssue struct {
	ProviderID string
	QRCode     string
	// FirstPaymentID is the provider's id of the first payment's charge,
	// for the journeys that have one.
	FirstPaymentID string
	// Provider is the provider that registered it, when not the one it was
	// created for; "" keeps that one.
	Provider string
}

// IssueRecurrence records the provider's registration of a CREATED
// recurrence not yet registered, and of its first payment's charge (its
// provider's id, the composite QR Code, payable until the consent's
// deadline). Recording the same one twice is harmless.
func (db *DB) IssueRecurrence(ctx context.Context, id uuid.UUID, is RecurrenceIssue) (Recurrence, error) {
	return db.moveRegistration(ctx, "issue", id, `UPDATE recurrences SET provider_id = $2, qrcode = nullif($3, ''), failure_reason = NULL,
			provider = coalesce(nullif($4::text, ''), provider), updated_at = now()
		WHERE id = $1 AND status = 'CREATED' AND (provider_id IS NULL OR provider_id = $2) RETURNING first_charge_id`,
		[]any{id, is.ProviderID, is.QRCode, is.Provider},
		`UPDATE charges c SET pix_id = $2, qrcode = r.qrcode, expires_at = r.consent_expires_at, failure_reason = NULL,
			provider = r.provider, updated_at = now()
		FROM recurrences r WHERE c.id = $1 AND r.first_charge_id = c.id AND c.status = 'PENDING' AND (c.pix_id IS NULL OR c.pix_id = $2)`,
		is.FirstPaymentID)
}

// FailRecurrence records that the provider did not register a CREATED
// recurrence: it is FAILED (its first payment's charge too), and the same
// request again reopens it.
func (db *DB) FailRecurrence(ctx context.Context, id uuid.UUID, reason string) (Recurrence, error) {
	return db.moveRegistration(ctx, "fail", id, `UPDATE recurrences SET status = 'FAILED', failure_reason = $2, updated_at = now()
		WHERE id = $1 AND status = 'CREATED' AND provider_id IS NULL RETURNING first_charge_id`, []any{id, reason},
		`UPDATE charges SET status = 'FAILED', failure_reason = $2, updated_at = now() WHERE id = $1 AND status = 'PENDING' AND pix_id IS NULL`,
		reason)
}

// ReopenRecurrence moves a FAILED recurrence back to CREATED (its first
// payment's charge to PENDING), to be asked of the provider again.
func (db *DB) ReopenRecurrence(ctx context.Context, id uuid.UUID) (Recurrence, error) {
	return db.moveRegistration(ctx, "reopen", id, `UPDATE recurrences SET status = 'CREATED', updated_at = now()
		WHERE id = $1 AND status = 'FAILED' AND provider_id IS NULL RETURNING first_charge_id`, []any{id},
		`UPDATE charges SET status = 'PENDING', updated_at = now() WHERE id = $1 AND status = 'FAILED' AND pix_id IS NULL AND $2::text IS NULL`,
		nil)
}

// moveRegistration runs one step of a recurrence's registration (move,
// returning its first_charge_id), then the same step of its first
// payment's charge (charge, with the charge's id and arg), and reads the
// recurrence back: one transaction. A recurrence no longer where the step
// expects is ErrStateChanged.
func (db *DB) moveRegistration(ctx context.Context, what string, id uuid.UUID, move string, args []any, charge string, arg any) (Recurrence, error) {
	var r Recurrence
	err := db.InTx(ctx, func(t *Tx) error {
		var first *uuid.UUID
		if err := t.tx.QueryRow(ctx, move, args...).Scan(&first); err != nil {
			return stateChanged(err)
		}
		if first != nil {
			if _, err := t.tx.Exec(ctx, charge, *first, arg); err != nil {
				return err
			}
		}
		rows, _ := t.tx.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences WHERE id = $1`, id)
		var err error
		r, err = pgx.CollectExactlyOneRow(rows, scanRecurrence)
		return err
	})
	if err != nil {
		return Recurrence{}, fmt.Errorf("storage: %s recurrence %s: %w", what, id, err)
	}
	return r, nil
}

// RecurrenceChange is a recurrence's move to another status, with what
// the provider said of it.
type RecurrenceChange struct {
	To          recurrence.RecurrenceStatus
	PayerMax    money.Money // 0: unknown
	ApprovedAt  time.Time   // zero: unknown (now, when it becomes APPROVED)
	CancelledBy string
	EndCode     string
	EndReason   string
}

// MoveRecurrence moves a recurrence from status from to c.To, guarded by
// from: changed is false (and the recurrence as it is returned) when it is
// no longer there. An end status records when it ended.
func (t *Tx) MoveRecurrence(ctx context.Context, id uuid.UUID, from recurrence.RecurrenceStatus, c RecurrenceChange) (r Recurrence, changed bool, err error) {
	var approved *time.Time
	if !c.ApprovedAt.IsZero() {
		approved = &c.ApprovedAt
	}
	rows, _ := t.tx.Query(ctx, `UPDATE recurrences SET status = $3, updated_at = now(),
			payer_max = coalesce(nullif($4::bigint, 0), payer_max),
			approved_at = CASE WHEN $3 = 'APPROVED' THEN coalesce($5, approved_at, now()) ELSE approved_at END,
			cancelled_by = coalesce(nullif($6, ''), cancelled_by), end_code = coalesce(nullif($7, ''), end_code),
			end_reason = coalesce(nullif($8, ''), end_reason),
			ended_at = CASE WHEN $3 IN ('REJECTED', 'EXPIRED', 'CANCELLED', 'COMPLETED') THEN now() ELSE ended_at END
		WHERE id = $1 AND status = $2 RETURNING `+recurrenceColumns,
		id, from, c.To, c.PayerMax, approved, c.CancelledBy, c.EndCode, c.EndReason)
	r, err = pgx.CollectExactlyOneRow(rows, scanRecurrence)
	if err == pgx.ErrNoRows {
		rows, _ := t.tx.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences WHERE id = $1`, id)
		r, err = pgx.CollectExactlyOneRow(rows, scanRecurrence)
		return r, false, notFound(err)
	}
	if err != nil {
		return Recurrence{}, false, fmt.Errorf("storage: move recurrence %s: %w", id, err)
	}
	return r, true, nil
}

// WaitingRecurrences are the registered recurrences still waiting for
// their payer's answer (CREATED) that no news moved for olderThan, the
// longest first: the reconciler reads them at their provider, so that an
// answer whose notification was lost is applied all the same.
func (db *DB) WaitingRecurrences(ctx context.Context, olderThan time.Duration, limit int) ([]Recurrence, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences
		WHERE status = 'CREATED' AND provider_id IS NOT NULL AND updated_at < now() - $1::interval ORDER BY updated_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanRecurrence)
}

// TouchRecurrence moves a waiting recurrence to the back of that queue.
func (db *DB) TouchRecurrence(ctx context.Context, id uuid.UUID) error {
	_, err := db.pool.Exec(ctx, `UPDATE recurrences SET updated_at = now() WHERE id = $1 AND status = 'CREATED'`, id)
	return err
}
