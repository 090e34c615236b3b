package storage

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// replayedTransfer returns the transfer of table that holds externalID when
// hash is its request's, ErrIdempotencyConflict when it is another request,
// ErrNotFound when there is none.
func replayedTransfer[T any](ctx context.Context, q ledger.Querier, tt transferTable[T], integratorID int64, externalID *string, hash []byte) (T, error) {
	var (
		zero   T
		id     uuid.UUID
		stored []byte
	)
	err := q.QueryRow(ctx, `SELECT id, request_hash FROM `+tt.table+` WHERE integrator_id = $1 AND external_id = $2`,
		integratorID, externalID).Scan(&id, &stored)
	if err != nil {
		return zero, notFound(err)
	}
	if !bytes.Equal(stored, hash) {
		return zero, ErrIdempotencyConflict
	}
	return getByID(ctx, q, tt.table, tt.columns, tt.scan, id)
}

// reservation is the posting that moves total, a new transfer's amount +
// fee, from the integrator's available balance to its reserved one.
func reservation[T any](tt transferTable[T], id uuid.UUID, integratorID int64, total money.Money) ledger.Transaction {
	return ledger.Transaction{
		Reference: tt.kind + ":" + id.String() + ":reserve",
		Kind:      tt.kind + ".reserve",
		Entries: []ledger.Entry{
			{Account: ledger.Of(integratorID, ledger.Available), Amount: -total},
			{Account: ledger.Of(integratorID, ledger.Reserved), Amount: total},
		},
	}
}

// transferCreateSQL is a transfer's whole create as one statement, which
// raises nothing for a refusal and so can share a transaction with others
// (group commit): the reservation locks and checks the wallet (its posting
// arguments are $1-$6); insert, an INSERT … SELECT of the transfer's row
// (its own arguments from $10) FROM chk, writes the row only when the
// wallet covers it and the reservation was never posted; then the
// statement's other writes (more, its own WITH entries reading w), the
// outbox messages ($7-$9) and the posting, all only when the row was
// written. Its one row: the row's timestamps (NULL when not written), the
// ledger's verdict, and whether the reservation was posted before.
func transferCreateSQL(insert, more string) string {
	return `WITH ` + ledger.PostingLockCTEs(1) + `, r AS (
  SELECT EXISTS (SELECT FROM ledger_transactions WHERE reference = $1) AS posted
), w AS (
  ` + insert + `
  FROM chk, r WHERE chk.overdraft IS NULL AND chk.missing IS NULL AND NOT r.posted
  ON CONFLICT (integrator_id, external_id) DO NOTHING
  RETURNING created_at, updated_at
)` + more + `, o AS (
  INSERT INTO outbox (task_type, task_id, payload)
  SELECT m.task_type, m.task_id, m.payload::jsonb FROM w, unnest($7::text[], $8::text[], $9::text[]) AS m(task_type, task_id, payload)
  ON CONFLICT (task_id) DO NOTHING
), ` + ledger.PostingWriteCTEs("w", 1) + `
SELECT w.created_at, w.updated_at, chk.overdraft, chk.missing, r.posted FROM chk CROSS JOIN r LEFT JOIN w ON true`
}

// transferCreateArgs are transferCreateSQL's arguments: the reservation's,
// the outbox messages', then the transfer row's own.
func transferCreateArgs(reserve ledger.Transaction, msgs []OutboxMessage, own ...any) []any {
	types, ids, payloads := outboxColumns(msgs)
	return append(append(reserve.Args(), types, ids, payloads), own...)
}

// transferCreated reads transferCreateSQL's row into the transfer's
// timestamps. wrote is false, with a nil error, when the external_id was
// taken (a replay or a conflict); the ledger's refusal is its error.
func transferCreated(row pgx.Row, createdAt, updatedAt *time.Time) (wrote bool, err error) {
	var (
		created, updated   *time.Time
		overdraft, missing *string
		posted             bool
	)
	if err := row.Scan(&created, &updated, &overdraft, &missing, &posted); err != nil {
		return false, err
	}
	switch {
	case created != nil:
		*createdAt, *updatedAt = *created, *updated
		return true, nil
	case posted:
		return false, ledger.ErrDuplicate
	}
	return false, ledger.CheckError(overdraft, missing)
}

// notCreated answers a create that wrote nothing: a replay of the
// request that holds its external_id, ErrIdempotencyConflict, or refused,
// the ledger's refusal (checked after the replay: a replay's answer does
// not depend on the balance).
func notCreated[T any](ctx context.Context, q ledger.Querier, tt transferTable[T], integratorID int64, externalID *string, hash []byte, refused error) (T, error) {
	var zero T
	if externalID == nil {
		if refused == nil { // no external_id, so no conflict: cannot happen
			refused = errors.New("storage: a transfer create wrote nothing")
		}
		return zero, refused
	}
	rec, err := replayedTransfer(ctx, q, tt, integratorID, externalID, hash)
	if errors.Is(err, ErrNotFound) && refused != nil {
		return zero, refused
	}
	return rec, err
}
