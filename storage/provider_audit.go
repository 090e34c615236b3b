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

// The provider audit (worker/provideraudit) reads PixGate's transfers
// beside the providers' statements: those a statement's lines name, and
// those PixGate completed over a span, which some line should name.

// auditTransfers selects every kind's transfers that meet where, each
// kind's columns and then the kind (each kind's own columns have the same
// types), the kinds joined by union ("UNION" or "UNION ALL").
func auditTransfers(where, union string) string {
	each := make([]string, len(TransferKinds))
	for i, k := range TransferKinds {
		each[i] = `SELECT ` + k.columns() + `, '` + string(k) + `'::text FROM ` + k.spec().table + ` WHERE ` + where
	}
	return strings.Join(each, "\n"+union+" ")
}

// scanAuditTransfer reads a row of auditTransfers.
func scanAuditTransfer(r pgx.CollectableRow) (Transfer, error) {
	var kind string
	t, err := TransferKind("").scanWith(r, &kind)
	t.Kind = TransferKind(kind)
	return t, err
}

// TransfersByStatementRefs returns the transfers, of every kind, that
// statement lines of provider may name: those whose id is one of ids
// (PixGate's id, which a line echoes), whose end-to-end id is one of
// endToEndIDs, or which provider knows by one of pixIDs (its own ids).
// Each is read by its index, once however many of the ids name it.
func (db *DB) TransfersByStatementRefs(ctx context.Context, provider string, ids []uuid.UUID, endToEndIDs, pixIDs []string) ([]Transfer, error) {
	if len(ids)+len(endToEndIDs)+len(pixIDs) == 0 {
		return nil, nil
	}
	if ids == nil {
		ids = []uuid.UUID{}
	}
	if endToEndIDs == nil {
		endToEndIDs = []string{}
	}
	if pixIDs == nil {
		pixIDs = []string{}
	}
	// One arm per id, so that each reads its own index (an OR of them
	// would have the planner prove the partial indexes apply).
	sql := strings.Join([]string{
		auditTransfers(`id = ANY($1)`, "UNION"),
		auditTransfers(`end_to_end_id IS NOT NULL AND end_to_end_id = ANY($2)`, "UNION"),
		auditTransfers(`pix_id IS NOT NULL AND pix_id = ANY($4) AND provider = $3`, "UNION"),
	}, "\nUNION ")
	rows, _ := db.pool.Query(ctx, sql, ids, endToEndIDs, provider, pixIDs)
	out, err := pgx.CollectRows(rows, scanAuditTransfer)
	if err != nil {
		return nil, fmt.Errorf("storage: transfers by statement refs: %w", err)
	}
	return out, nil
}

// EachTransferCompleted calls each with every transfer, of every kind,
// that completed in [from, to) (its finished_at), read by the index of
// completed transfers, one row at a time. An error of each stops it.
func (db *DB) EachTransferCompleted(ctx context.Context, from, to time.Time, each func(Transfer) error) error {
	rows, _ := db.pool.Query(ctx, auditTransfers(`status = 'COMPLETED' AND finished_at >= $1 AND finished_at < $2`, "UNION ALL"), from, to)
	defer rows.Close()
	for rows.Next() {
		t, err := scanAuditTransfer(rows)
		if err != nil {
			return fmt.Errorf("storage: completed transfers: %w", err)
		}
		if err := each(t); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: completed transfers: %w", err)
	}
	return nil
}

// AmountAdjustments returns, for each of ids that has any, what operators
// booked onto its provider's float in resolving reconciliation exceptions
// of its amount (reconciliation resolve --post-adjustment of an
// amount_mismatch): the money the provider moved for it beyond what the
// record does, as the reconciliation's delta counts it (negative: more
// left the provider).
func (db *DB) AmountAdjustments(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]money.Money, error) {
	out := map[uuid.UUID]money.Money{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, _ := db.pool.Query(ctx, `SELECT record_id, sum(adjusted) FROM reconciliation_items
		WHERE record_id = ANY($1) AND kind = 'amount_mismatch' AND adjusted <> 0 GROUP BY record_id`, ids)
	var (
		id       uuid.UUID
		adjusted money.Money
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &adjusted}, func() error {
		out[id] = adjusted
		return nil
	}); err != nil {
		return nil, fmt.Errorf("storage: amount adjustments: %w", err)
	}
	return out, nil
}
