package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// A transfer leaves PROCESSING once: each way out is a guarded update of
// its row (WHERE status = 'PROCESSING') and a posting whose reference is
// unique, in the caller's transaction, with what the kind's finish does to
// other records (kindSpec). changed is false, and nothing is written, when
// the transfer had already left PROCESSING; the transfer is then returned
// as it is.

// CompleteTransfer moves a PROCESSING transfer to COMPLETED and settles its
// reservation (transferCompleted): the amount leaves through the provider,
// the fee goes to the platform.
func (t *Tx) CompleteTransfer(ctx context.Context, kind TransferKind, id uuid.UUID, s Settlement) (Transfer, bool, error) {
	spec := kind.spec()
	if err := t.lockFor(ctx, kind, id); err != nil {
		return Transfer{}, false, err
	}
	rec, changed, err := t.transition(ctx, kind, id, `status = 'COMPLETED', pix_id = coalesce(pix_id, nullif($2, '')),
			end_to_end_id = nullif($3, ''), updated_at = now(), finished_at = $4`, s.PixID, s.EndToEndID, s.At)
	if err != nil || !changed {
		return rec, false, err
	}
	if err := t.postLater(ctx, transferCompleted(kind, id, rec.IntegratorID, rec.Provider, rec.Amount, rec.Fee)); err != nil {
		return rec, false, err
	}
	if spec.completed != "" {
		if _, err := t.tx.Exec(ctx, spec.completed, id); err != nil {
			return rec, false, fmt.Errorf("storage: complete %s %s: %w", kind, id, err)
		}
	}
	return rec, true, nil
}

// FailTransfer moves a PROCESSING transfer to FAILED and returns its
// reservation (transferFailed): to the available balance, but for what a
// refund took from a charge still under its settlement hold, which goes
// back to pending. It records the provider's transaction id as
// CompleteTransfer does, so a failure notified before the send call's
// answer was recorded still names its transaction.
func (t *Tx) FailTransfer(ctx context.Context, kind TransferKind, id uuid.UUID, f Failure) (Transfer, bool, error) {
	spec := kind.spec()
	if err := t.lockFor(ctx, kind, id); err != nil {
		return Transfer{}, false, err
	}
	rec, changed, err := t.transition(ctx, kind, id, `status = 'FAILED', pix_id = coalesce(pix_id, nullif($3, '')),
			failure_reason = $2, updated_at = now(), finished_at = now()`, f.Reason, f.PixID)
	if err != nil || !changed {
		return rec, false, err
	}
	var toPending money.Money
	if spec.failed != "" {
		if err := t.tx.QueryRow(ctx, spec.failed, id).Scan(&toPending); err != nil {
			return rec, false, fmt.Errorf("storage: fail %s %s: %w", kind, id, err)
		}
	}
	toDebt, err := t.releaseDebt(ctx, kind, rec)
	if err != nil {
		return rec, false, err
	}
	var back []splitMove
	if kind != KindWithdrawal {
		if back, err = t.giveSplitBack(ctx, id); err != nil {
			return rec, false, err
		}
	}
	_, err = t.Post(ctx, transferFailed(kind, id, rec.IntegratorID, rec.Amount, rec.Fee, toPending, toDebt, f.Reason, back...))
	return rec, err == nil, err
}

// releaseDebt is what a failed transfer's reservation gives back to the
// debt it booked when made (a MED return's shortfall, void now that the
// provider did not return it): what is still owed of it, read under the
// wallet's lock; cash-ins that recovered part of it meanwhile get that
// part back in available. It is recorded on the transfer.
func (t *Tx) releaseDebt(ctx context.Context, kind TransferKind, rec Transfer) (money.Money, error) {
	spec := kind.spec()
	if spec.shortfall == "" {
		return 0, nil
	}
	var shortfall money.Money
	if err := t.tx.QueryRow(ctx, spec.shortfall, rec.ID).Scan(&shortfall); err != nil {
		return 0, fmt.Errorf("storage: fail %s %s: %w", kind, rec.ID, err)
	}
	if shortfall == 0 {
		return 0, nil
	}
	wallet, err := t.lockWallet(ctx, rec.IntegratorID)
	if err != nil {
		return 0, err
	}
	toDebt := max(min(shortfall, -wallet[ledger.Debt]), 0)
	if _, err := t.tx.Exec(ctx, spec.debtReleased, rec.ID, toDebt); err != nil {
		return 0, fmt.Errorf("storage: fail %s %s: %w", kind, rec.ID, err)
	}
	return toDebt, nil
}

// lockFor takes the locks the kind takes before a transfer's row.
func (t *Tx) lockFor(ctx context.Context, kind TransferKind, id uuid.UUID) error {
	if lock := kind.spec().lock; lock != "" {
		if _, err := t.tx.Exec(ctx, lock, id); err != nil {
			return fmt.Errorf("storage: lock for %s %s: %w", kind, id, err)
		}
	}
	return nil
}

// transition sets set ($1 is the id, args follow) on the transfer if it
// is PROCESSING; changed is false when it was not, and it is read as it is.
func (t *Tx) transition(ctx context.Context, kind TransferKind, id uuid.UUID, set string, args ...any) (rec Transfer, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE `+kind.spec().table+` SET `+set+`
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+kind.columns(), append([]any{id}, args...)...)
	rec, err = pgx.CollectExactlyOneRow(rows, kind.scan)
	if errors.Is(err, pgx.ErrNoRows) {
		rec, err = kind.selectOne(ctx, t.tx, `id = $1`, id)
		return rec, false, err
	}
	if err != nil {
		return rec, false, fmt.Errorf("storage: %s transition: %w", kind, err)
	}
	return rec, true, nil
}
