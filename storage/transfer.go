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

// A transfer is money that leaves through the provider after being
// reserved: a withdrawal, or a refund. Both finish the same way, and the
// ledger postings of finishing live here, once.
type transferTable[T any] struct {
	table   string // also the ledger reference's prefix ("withdrawal", "refund")
	kind    string
	columns string
	scan    pgx.RowToFunc[T]
	parts   func(T) (integratorID int64, amount, fee money.Money)
}

var (
	withdrawalTransfers = transferTable[Withdrawal]{table: "withdrawals", kind: "withdrawal", columns: withdrawalColumns, scan: scanWithdrawal,
		parts: func(w Withdrawal) (int64, money.Money, money.Money) { return w.IntegratorID, w.Amount, w.Fee }}
	refundTransfers = transferTable[Refund]{table: "refunds", kind: "refund", columns: refundColumns, scan: scanRefund,
		parts: func(f Refund) (int64, money.Money, money.Money) { return f.IntegratorID, f.Amount, f.Fee }}
)

// completeTransfer moves a PROCESSING transfer to COMPLETED and settles its
// reservation: the amount leaves through the provider, the fee goes to the
// platform. changed is false (and nothing is written) when the transfer had
// already left PROCESSING.
func completeTransfer[T any](ctx context.Context, t *Tx, tt transferTable[T], id uuid.UUID, s Settlement) (rec T, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE `+tt.table+` SET status = 'COMPLETED', pix_id = coalesce(pix_id, nullif($2, '')),
			end_to_end_id = nullif($3, ''), updated_at = now(), finished_at = $4
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+tt.columns, id, s.PixID, s.EndToEndID, s.At)
	if rec, changed, err = transitioned(ctx, t, tt, id, rows); !changed {
		return rec, false, err
	}
	integrator, amount, fee := tt.parts(rec)
	entries := []ledger.Entry{
		{Account: ledger.Of(integrator, ledger.Reserved), Amount: -(amount + fee)},
		{Account: ledger.Platform(ledger.Provider), Amount: amount},
	}
	if fee > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Platform(ledger.Fees), Amount: fee})
	}
	_, err = t.Post(ctx, ledger.Transaction{Reference: TransferPosting(TransferKind(tt.kind), id, true), Kind: tt.kind + ".settle", Entries: entries})
	return rec, err == nil, err
}

// Failure is why a transfer failed, and the provider's transaction id when
// the provider knew it (a failure it reported, or a rejection before it
// had any).
type Failure struct {
	PixID  string
	Reason string
}

// failTransfer moves a PROCESSING transfer to FAILED and returns its
// reservation to the available balance. It records the provider's
// transaction id as completeTransfer does, so a failure notified before the
// send call's answer was recorded still names its transaction. changed is
// false (and nothing is written) when the transfer had already left
// PROCESSING.
func failTransfer[T any](ctx context.Context, t *Tx, tt transferTable[T], id uuid.UUID, f Failure) (rec T, changed bool, err error) {
	if rec, changed, err = failTransition(ctx, t, tt, id, f); !changed {
		return rec, false, err
	}
	integrator, amount, fee := tt.parts(rec)
	err = postTransferRelease(ctx, t, TransferKind(tt.kind), id, f.Reason, integrator, amount+fee, 0)
	return rec, err == nil, err
}

// failTransition is failTransfer's guarded state change, without the
// posting.
func failTransition[T any](ctx context.Context, t *Tx, tt transferTable[T], id uuid.UUID, f Failure) (T, bool, error) {
	rows, _ := t.tx.Query(ctx, `UPDATE `+tt.table+` SET status = 'FAILED', pix_id = coalesce(pix_id, nullif($3, '')),
			failure_reason = $2, updated_at = now(), finished_at = now()
		WHERE id = $1 AND status = 'PROCESSING' RETURNING `+tt.columns, id, f.Reason, f.PixID)
	return transitioned(ctx, t, tt, id, rows)
}

// postTransferRelease returns a failed transfer's reservation (total):
// toPending of it to the pending balance, the rest to available.
func postTransferRelease(ctx context.Context, t *Tx, kind TransferKind, id uuid.UUID, reason string, integrator int64, total, toPending money.Money) error {
	entries := []ledger.Entry{{Account: ledger.Of(integrator, ledger.Reserved), Amount: -total}}
	if toPending > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Of(integrator, ledger.Pending), Amount: toPending})
	}
	if total > toPending {
		entries = append(entries, ledger.Entry{Account: ledger.Of(integrator, ledger.Available), Amount: total - toPending})
	}
	_, err := t.Post(ctx, ledger.Transaction{Reference: TransferPosting(kind, id, false), Kind: string(kind) + ".release", Memo: reason, Entries: entries})
	return err
}

// TransferPosting is the ledger reference of a transfer's final posting:
// its settlement when completed, the release of its reservation when failed.
func TransferPosting(kind TransferKind, id uuid.UUID, completed bool) string {
	if completed {
		return string(kind) + ":" + id.String() + ":settle"
	}
	return string(kind) + ":" + id.String() + ":release"
}

// transitioned reads the row a guarded UPDATE returned; none means the
// record had already moved on, and it is read as it is.
func transitioned[T any](ctx context.Context, t *Tx, tt transferTable[T], id uuid.UUID, rows pgx.Rows) (T, bool, error) {
	rec, err := pgx.CollectExactlyOneRow(rows, tt.scan)
	if errors.Is(err, pgx.ErrNoRows) {
		rec, err = getByID(ctx, t.tx, tt.table, tt.columns, tt.scan, id)
		return rec, false, err
	}
	if err != nil {
		return rec, false, fmt.Errorf("storage: %s transition: %w", tt.kind, err)
	}
	return rec, true, nil
}

// getByID reads one record of table by id, whoever owns it.
func getByID[T any](ctx context.Context, q ledger.Querier, table, columns string, scan pgx.RowToFunc[T], id uuid.UUID) (T, error) {
	rows, _ := q.Query(ctx, `SELECT `+columns+` FROM `+table+` WHERE id = $1`, id)
	rec, err := pgx.CollectExactlyOneRow(rows, scan)
	return rec, notFound(err)
}
