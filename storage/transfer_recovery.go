package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// Recovery is what the reconciler did about a transfer the provider lost.
type Recovery struct {
	// Resends counts the sends after the provider no longer knew it.
	Resends int
	// FlaggedAt is when it was flagged for an operator, and FlagReason why.
	FlaggedAt  *time.Time
	FlagReason *string
}

// TransferRecovery reads a transfer's resends and flag.
func (db *DB) TransferRecovery(ctx context.Context, kind TransferKind, id uuid.UUID) (Recovery, error) {
	var r Recovery
	err := db.pool.QueryRow(ctx, `SELECT resends, flagged_at, flag_reason FROM `+kind.spec().table+` WHERE id = $1`, id).
		Scan(&r.Resends, &r.FlaggedAt, &r.FlagReason)
	return r, notFound(err)
}

// RecordResent records that a PROCESSING transfer the provider no longer
// knew as oldPixID was sent again and is now newPixID (the same one when
// the provider still had it), and counts the resend. ErrStateChanged: the
// transfer finished or was re-sent meanwhile.
func (db *DB) RecordResent(ctx context.Context, kind TransferKind, id uuid.UUID, oldPixID, newPixID string) error {
	tag, err := db.pool.Exec(ctx, `UPDATE `+kind.spec().table+` SET pix_id = $3, resends = resends + 1, updated_at = now()
		WHERE id = $1 AND status = 'PROCESSING' AND pix_id = $2`, id, oldPixID, newPixID)
	if err != nil {
		return fmt.Errorf("storage: record %s resent: %w", kind, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrStateChanged
	}
	return nil
}

// FlagTransfer flags a PROCESSING transfer for an operator, saying why; the
// reconciler stops asking about it. flagged is false when it was flagged
// already or is no longer PROCESSING.
func (db *DB) FlagTransfer(ctx context.Context, kind TransferKind, id uuid.UUID, reason string) (flagged bool, err error) {
	tag, err := db.pool.Exec(ctx, `UPDATE `+kind.spec().table+` SET flagged_at = now(), flag_reason = $2
		WHERE id = $1 AND status = 'PROCESSING' AND flagged_at IS NULL`, id, reason)
	if err != nil {
		return false, fmt.Errorf("storage: flag %s: %w", kind, err)
	}
	return tag.RowsAffected() == 1, nil
}

// FlaggedTransfer is a transfer waiting for an operator.
type FlaggedTransfer struct {
	Kind         TransferKind `json:"kind"`
	ID           uuid.UUID    `json:"id"`
	IntegratorID int64        `json:"integrator_id"`
	Amount       money.Money  `json:"amount"`
	Fee          money.Money  `json:"fee"`
	PixID        *string      `json:"pix_id"`
	Resends      int          `json:"resends"`
	FlaggedAt    time.Time    `json:"flagged_at"`
	FlagReason   string       `json:"flag_reason"`
	CreatedAt    time.Time    `json:"created_at"`
}

// FlaggedTransfers lists the PROCESSING transfers of every kind flagged
// for an operator, longest waiting first.
func (db *DB) FlaggedTransfers(ctx context.Context, limit int) ([]FlaggedTransfer, error) {
	var each []string
	for _, k := range TransferKinds {
		each = append(each, `SELECT '`+string(k)+`' AS kind, id, integrator_id, amount, fee, pix_id, resends, flagged_at, flag_reason, created_at
			FROM `+k.spec().table+` WHERE status = 'PROCESSING' AND flagged_at IS NOT NULL`)
	}
	rows, _ := db.pool.Query(ctx, `SELECT kind, id, integrator_id, amount, fee, pix_id, resends, flagged_at, coalesce(flag_reason, ''), created_at
		FROM (`+strings.Join(each, " UNION ALL ")+`) f ORDER BY flagged_at LIMIT $1`, limit)
	return pgx.CollectRows(rows, pgx.RowToStructByPos[FlaggedTransfer])
}

// CountFlaggedTransfers counts the transfers of each kind waiting for an
// operator (for the gauge an alert watches).
func (db *DB) CountFlaggedTransfers(ctx context.Context) (map[TransferKind]int, error) {
	var each []string
	for _, k := range TransferKinds {
		each = append(each, `SELECT '`+string(k)+`', count(*) FROM `+k.spec().table+` WHERE status = 'PROCESSING' AND flagged_at IS NOT NULL`)
	}
	rows, _ := db.pool.Query(ctx, strings.Join(each, " UNION ALL "))
	counts := make(map[TransferKind]int, len(TransferKinds))
	var (
		kind TransferKind
		n    int
	)
	_, err := pgx.ForEachRow(rows, []any{&kind, &n}, func() error { counts[kind] = n; return nil })
	return counts, err
}
