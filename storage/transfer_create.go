package storage

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// replayedTransfer returns the transfer of the kind that holds externalID
// when hash is its request's, ErrIdempotencyConflict when it is another
// request, ErrNotFound when there is none. A create that holds a
// connection (a refund's) passes that one as q: it never waits for a
// second connection while holding its first.
func replayedTransfer(ctx context.Context, q ledger.Querier, kind TransferKind, integratorID int64, externalID *string, hash []byte) (Transfer, error) {
	var stored []byte
	rows, _ := q.Query(ctx, `SELECT `+kind.columns()+`, request_hash FROM `+kind.spec().table+`
		WHERE integrator_id = $1 AND external_id = $2`, integratorID, externalID)
	rec, err := pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (Transfer, error) { return kind.scanWith(r, &stored) })
	switch {
	case err != nil:
		return Transfer{}, notFound(err)
	case !bytes.Equal(stored, hash):
		return Transfer{}, ErrIdempotencyConflict
	}
	return rec, nil
}

// transferCreateSQL is a transfer's whole create as one statement, which
// raises nothing for a refusal and so can share a transaction with others
// (group commit): the reservation locks and checks the wallet (its posting
// arguments are $1-$7); insert, an INSERT … SELECT of the transfer's row
// (its own arguments from $11) FROM chk, writes the row only when the
// wallet covers it and the reservation was never posted; then the
// statement's other writes (more, its own WITH entries reading w), the
// outbox messages ($8-$10) and the posting, all only when the row was
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
  SELECT m.task_type, m.task_id, m.payload::jsonb FROM w, unnest($8::text[], $9::text[], $10::text[]) AS m(task_type, task_id, payload)
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
func notCreated(ctx context.Context, q ledger.Querier, kind TransferKind, integratorID int64, externalID *string, hash []byte, refused error) (Transfer, error) {
	if externalID == nil {
		if refused == nil { // no external_id, so no conflict: cannot happen
			refused = errors.New("storage: a transfer create wrote nothing")
		}
		return Transfer{}, refused
	}
	rec, err := replayedTransfer(ctx, q, kind, integratorID, externalID, hash)
	if errors.Is(err, ErrNotFound) && refused != nil {
		return Transfer{}, refused
	}
	return rec, err
}
