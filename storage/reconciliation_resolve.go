package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Errors of ResolveReconciliationItem.
var (
	// ErrReconNotOpen: the item is not an open exception (resolved already,
	// expected, or a match).
	ErrReconNotOpen = errors.New("storage: the item is not an open exception")
	// ErrReconNothingToPost: an adjustment was asked for an item whose
	// money is already all posted, or that moves none.
	ErrReconNothingToPost = errors.New("storage: the item moves no money PixGate has not booked")
)

// ReconResolution is an operator's decision on an exception.
type ReconResolution struct {
	Operator, Reason string
	// PostAdjustment books the item's delta onto the provider's float
	// (reconciliationAdjusted), for money that moved at the provider and
	// not in PixGate's records, or the other way round.
	PostAdjustment bool
}

// ResolveReconciliationItem closes an open exception: in one transaction,
// the item resolved, an audit record of who, why and when, and, when asked,
// the balanced posting of the money it moved. The standing result of its
// day counts the adjustment in its figures, and the day is reconciled once
// nothing is open and no difference is left unexplained.
func (db *DB) ResolveReconciliationItem(ctx context.Context, id uuid.UUID, r ReconResolution) (ReconItem, error) {
	var out ReconItem
	err := db.InTx(ctx, func(t *Tx) error {
		rows, _ := t.tx.Query(ctx, `SELECT `+reconItemColumns+` FROM reconciliation_items WHERE id = $1 FOR UPDATE`, id)
		it, err := pgx.CollectExactlyOneRow(rows, scanReconItem)
		if err != nil {
			return notFound(err)
		}
		if !it.Status.CanMoveTo(ReconResolved) {
			return fmt.Errorf("%w: it is %s (%s)", ErrReconNotOpen, it.Kind, it.Status)
		}
		amount, reference := it.Delta-it.Adjusted, ""
		var txID *int64
		if r.PostAdjustment {
			if amount == 0 || it.AdjustmentID != nil {
				return ErrReconNothingToPost
			}
			lt := reconciliationAdjusted(it.ID, it.Provider, amount, r.Reason)
			posted, err := t.Post(ctx, lt)
			if err != nil {
				return err
			}
			reference, txID = lt.Reference, &posted.ID
		} else {
			amount = 0
		}
		if _, err := t.RecordOperatorAction(ctx, OperatorAction{Operator: r.Operator, Action: "reconciliation.resolve",
			ResourceType: "reconciliation_item", ResourceID: it.ID, Reason: r.Reason, LedgerReference: reference}); err != nil {
			return err
		}
		if _, err := t.tx.Exec(ctx, `UPDATE reconciliation_items SET status = 'resolved', resolved_at = now(), resolved_by = $2,
			resolution = $3, adjusted = adjusted + $4, adjustment_id = coalesce($5, adjustment_id), updated_at = now() WHERE id = $1`,
			it.ID, r.Operator, r.Reason, int64(amount), txID); err != nil {
			return fmt.Errorf("storage: resolve reconciliation item: %w", err)
		}
		// The standing result: the adjustment is PixGate's side of the day now.
		if _, err := t.tx.Exec(ctx, `UPDATE reconciliation_runs r SET float_net = float_net + $3, explained = explained - $3,
				float_at_close = float_at_close + $3, day_difference = day_difference - $3, closing_difference = closing_difference - $3
			FROM reconciliation_days d WHERE d.provider = $1 AND d.day = $2::date AND r.id = d.run_id`, it.Provider, it.Day, int64(amount)); err != nil {
			return fmt.Errorf("storage: resolve reconciliation item: %w", err)
		}
		if _, err := t.tx.Exec(ctx, `UPDATE reconciliation_days d SET status = 'reconciled', updated_at = now()
			FROM reconciliation_runs r WHERE d.provider = $1 AND d.day = $2::date AND r.id = d.run_id
				AND coalesce(r.unexplained, 0) = 0
				AND NOT EXISTS (SELECT 1 FROM reconciliation_items i WHERE i.provider = d.provider AND i.day = d.day AND i.status = 'open')`,
			it.Provider, it.Day); err != nil {
			return fmt.Errorf("storage: resolve reconciliation item: %w", err)
		}
		rows, _ = t.tx.Query(ctx, `SELECT `+reconItemColumns+` FROM reconciliation_items WHERE id = $1`, id)
		out, err = pgx.CollectExactlyOneRow(rows, scanReconItem)
		return err
	})
	return out, err
}
