package ledger

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/money"
)

// Posted is the result of a successful Post.
type Posted struct {
	ID int64
	// BalanceAfter holds each touched account's balance after the posting
	// (for a platform account, its shard's).
	BalanceAfter map[Account]money.Money
}

// PostingCTEs is a posting as the WITH list of one SQL statement, its
// PostingArgs arguments (Transaction.Args) numbered from $first. One round trip locks
// the accounts, checks them and writes: Post is such a statement, and a
// statement that composes a posting with other writes may include it. When
// guard names a relation of the statement, the posting happens only if
// guard has a row (e.g. the row a conflicting INSERT did not write). An
// overdraft or a missing account raises (ledger_check, migration 11) and the
// whole statement writes nothing.
//
// The list is PostingLockCTEs, guarded, then PostingWriteCTEs; the
// statement selects from t (its id) and l (balances after).
func PostingCTEs(guard string, first int) string {
	return lockCTEs(guard, first) + `, ` + writeCTEs(guard, first, true)
}

// PostingLockCTEs and PostingWriteCTEs split a posting for a statement that
// says when funds are short instead of raising, so that it can share a
// transaction with others (group commit): PostingLockCTEs first, which
// locks and checks the accounts and leaves the verdict in chk (overdraft,
// missing: NULL when the posting can be written; see CheckError); then the
// statement's own writes, made to depend on chk; then PostingWriteCTEs,
// which writes the posting only when guard (one of those writes) has a
// row. Arguments as PostingCTEs'.
func PostingLockCTEs(first int) string { return lockCTEs("", first) }

// PostingWriteCTEs: see PostingLockCTEs.
func PostingWriteCTEs(guard string, first int) string { return writeCTEs(guard, first, false) }

// lockCTEs are the first half of a posting:
//
//   - k: the entries in order (integrator, 0 for a platform account; kind;
//     amount; provider, "" but for a float; position), none unless guard
//     has a row.
//   - li, lp: the integrator accounts, then the platform accounts (one
//     shard of the kind, or of the provider's float, by the reference's
//     hash), each locked in id order: one global
//     order, so concurrent postings never deadlock. Each is found by
//     equality on its own unique index: one OR over both kinds of key
//     cannot use an index, and Postgres' generic plan for it (which a
//     prepared statement switches to after five runs) reads the whole
//     table, so every posting would cost more with every integrator added.
//   - chk: the first account that would overdraw, and the first entry
//     without an account (a platform kind or a float with no shard at
//     all among them: its shard is NULL, not a division by zero).
func lockCTEs(guard string, first int) string {
	arg := func(i int) string { return "$" + strconv.Itoa(first+i) }
	from := ""
	if guard != "" {
		from = guard + ", "
	}
	return `k AS (
  SELECT k.* FROM ` + from + `unnest(` + arg(3) + `::bigint[], ` + arg(4) + `::text[], ` + arg(5) + `::bigint[], ` + arg(6) + `::text[])
    WITH ORDINALITY AS k(integrator_id, kind, amount, provider, i)
), li AS (
  SELECT x.id, x.balance, x.allow_negative, k.integrator_id, k.kind, k.amount, k.i
  FROM k JOIN ledger_accounts x ON x.integrator_id = k.integrator_id AND x.kind = k.kind
  WHERE x.integrator_id IS NOT NULL
  ORDER BY x.id FOR UPDATE OF x
), lp AS (
  SELECT x.id, x.balance, x.allow_negative, k.integrator_id, k.kind, k.amount, k.i
  FROM k JOIN ledger_accounts x ON x.kind = k.kind AND x.provider = k.provider AND x.shard = ` + shardOf("hashtext("+arg(0)+")",
		"nullif((SELECT count(*) FROM ledger_accounts c WHERE c.integrator_id IS NULL AND c.kind = k.kind AND c.provider = k.provider), 0)") + `
  WHERE x.integrator_id IS NULL AND k.integrator_id = 0
  ORDER BY x.id FOR UPDATE OF x
), l AS (
  SELECT * FROM li UNION ALL SELECT * FROM lp
), chk AS (
  SELECT min(concat_ws('|', integrator_id, kind, balance, -amount)) FILTER (WHERE balance + amount < 0 AND NOT allow_negative) AS overdraft,
    (SELECT concat_ws('|', k.integrator_id, k.kind, k.provider) FROM k WHERE k.i NOT IN (SELECT i FROM l) LIMIT 1) AS missing
  FROM l
)`
}

// shardOf is the platform shard of a posting: its reference's 32-bit hash
// modulo the shards. The hash goes to bigint first: abs of the int minimum
// is out of int's range, and a reference with that hash could never post.
func shardOf(hash, shards string) string {
	return "mod(abs((" + hash + ")::bigint), " + shards + ")"
}

// writeCTEs are the second half: t claims the reference (a reference
// posted before claims nothing, and then nothing is written), u and e
// write the balances and the entries. With raise, t calls ledger_check,
// which raises on chk's verdict; without, t claims nothing unless chk is
// clean.
func writeCTEs(guard string, first int, raise bool) string {
	arg := func(i int) string { return "$" + strconv.Itoa(first+i) }
	from, ok := "", "ledger_check(chk.overdraft, chk.missing)"
	if guard != "" {
		from = guard + ", "
	}
	if !raise {
		ok = "chk.overdraft IS NULL AND chk.missing IS NULL"
	}
	return `t AS (
  INSERT INTO ledger_transactions (reference, kind, memo)
  SELECT ` + arg(0) + `, ` + arg(1) + `, ` + arg(2) + ` FROM ` + from + `chk WHERE ` + ok + `
  ON CONFLICT (reference) DO NOTHING
  RETURNING id
), u AS (
  UPDATE ledger_accounts x SET balance = l.balance + l.amount FROM l, t WHERE x.id = l.id
), e AS (
  INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
  SELECT t.id, l.id, l.amount, l.balance + l.amount FROM t, l
)`
}

// postSQL is a posting alone.
var postSQL = `WITH ` + PostingCTEs("", 1) + `
SELECT t.id, (SELECT array_agg(l.balance + l.amount ORDER BY l.i) FROM l) FROM t`

// PostingArgs is how many arguments a posting takes in a statement
// (Transaction.Args).
const PostingArgs = 7

// Args are the posting's PostingArgs arguments for PostingCTEs, in order:
// reference, kind, memo, then each entry's integrator (0 for a platform
// account), kind, amount and provider ("" but for a float).
func (t Transaction) Args() []any {
	integrators := make([]int64, len(t.Entries))
	kinds := make([]string, len(t.Entries))
	amounts := make([]int64, len(t.Entries))
	providers := make([]string, len(t.Entries))
	for i, e := range t.Entries {
		integrators[i], kinds[i], amounts[i], providers[i] = e.Account.Integrator, string(e.Account.Kind), int64(e.Amount), e.Account.Provider
	}
	return []any{t.Reference, t.Kind, t.Memo, integrators, kinds, amounts, providers}
}

// Post writes t inside the caller's SQL transaction q, in one statement.
// On any error it has written nothing (the transaction is then aborted and
// must be rolled back): it fails with ErrInvalid or ErrUnbalanced for a
// malformed posting, ErrUnknownAccount, an *InsufficientFundsError when an
// account that may not go negative would, or ErrDuplicate when t.Reference
// was posted before.
func Post(ctx context.Context, q Querier, t Transaction) (Posted, error) {
	if err := t.Validate(); err != nil {
		return Posted{}, err
	}
	var (
		id    int64
		after []int64
	)
	err := q.QueryRow(ctx, postSQL, t.Args()...).Scan(&id, &after)
	if errors.Is(err, pgx.ErrNoRows) {
		return Posted{}, fmt.Errorf("%w: %s", ErrDuplicate, t.Reference)
	}
	if err != nil {
		return Posted{}, PostError(err)
	}
	posted := Posted{ID: id, BalanceAfter: make(map[Account]money.Money, len(t.Entries))}
	for i, e := range t.Entries {
		posted.BalanceAfter[e.Account] = money.Money(after[i])
	}
	return posted, nil
}

// Deferred is Post as a statement to run later, in a pipeline of the
// caller's transaction: its SQL and arguments, and done, which reads its
// row and answers Post's errors (the Posted result is not kept). t is
// validated now.
func Deferred(t Transaction) (sql string, args []any, done func(pgx.Row) error, err error) {
	if err := t.Validate(); err != nil {
		return "", nil, nil, err
	}
	return postSQL, t.Args(), func(row pgx.Row) error {
		var (
			id    int64
			after []int64
		)
		err := row.Scan(&id, &after)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: %s", ErrDuplicate, t.Reference)
		}
		if err != nil {
			return PostError(err)
		}
		return nil
	}, nil
}

// PostError turns what ledger_check raised into the package's errors; any
// other error is wrapped as it is.
func PostError(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return fmt.Errorf("ledger: post: %w", err)
	}
	if err := verdict(pe.Code, pe.Detail); err != nil {
		return err
	}
	return fmt.Errorf("ledger: post: %w", err)
}

// CheckError is PostingLockCTEs' verdict (chk.overdraft, chk.missing) as
// the package's errors: nil when the posting could be written.
func CheckError(overdraft, missing *string) error {
	switch {
	case overdraft != nil:
		return verdict("PX001", *overdraft)
	case missing != nil:
		return verdict("PX002", *missing)
	}
	return nil
}

// IsRefusal reports whether err is the ledger refusing a posting (funds,
// accounts, a reference posted before), as opposed to a failure.
func IsRefusal(err error) bool {
	return errors.Is(err, ErrInsufficientFunds) || errors.Is(err, ErrUnknownAccount) || errors.Is(err, ErrDuplicate)
}

// verdict reads ledger_check's code and detail; nil for anything else.
func verdict(code, detailText string) error {
	detail := strings.Split(detailText, "|")
	switch {
	case code == "PX001" && len(detail) == 4:
		integrator, _ := strconv.ParseInt(detail[0], 10, 64)
		balance, _ := strconv.ParseInt(detail[2], 10, 64)
		debit, _ := strconv.ParseInt(detail[3], 10, 64)
		return &InsufficientFundsError{Account: Account{Integrator: integrator, Kind: Kind(detail[1])},
			Balance: money.Money(balance), Requested: money.Money(debit)}
	case code == "PX002" && len(detail) == 3:
		integrator, _ := strconv.ParseInt(detail[0], 10, 64)
		return fmt.Errorf("%w: %s", ErrUnknownAccount, Account{Integrator: integrator, Kind: Kind(detail[1]), Provider: detail[2]})
	}
	return nil
}
