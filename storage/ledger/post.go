package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// Posted is the result of a successful Post.
type Posted struct {
	ID int64
	// BalanceAfter holds each touched account's balance after the posting.
	BalanceAfter map[Account]money.Money
}

// The accounts of a posting are locked in one statement, in one global order
// (integrator accounts by id, then platform accounts by id), so concurrent
// postings never deadlock, and the busy platform rows are held for the
// shortest time.
const lockAccountsSQL = `
SELECT a.id, coalesce(a.integrator_id, 0), a.kind, a.balance, a.allow_negative
FROM ledger_accounts a
JOIN unnest($1::bigint[], $2::text[]) AS k(integrator_id, kind)
  ON a.kind = k.kind
 AND ((k.integrator_id = 0 AND a.integrator_id IS NULL) OR a.integrator_id = k.integrator_id)
ORDER BY a.integrator_id IS NULL, a.id
FOR UPDATE OF a`

// writeSQL claims the reference and, only when it was free, applies the
// balances and inserts the entries: one round trip while the accounts are
// locked. A reference posted before returns no row and writes nothing.
const writeSQL = `
WITH t AS (
  INSERT INTO ledger_transactions (reference, kind, memo) VALUES ($1, $2, $3)
  ON CONFLICT (reference) DO NOTHING
  RETURNING id
), e AS (
  SELECT * FROM unnest($4::bigint[], $5::bigint[], $6::bigint[]) AS e(account_id, amount, balance_after)
), upd AS (
  UPDATE ledger_accounts a SET balance = e.balance_after FROM e, t WHERE a.id = e.account_id
), ins AS (
  INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after)
  SELECT t.id, e.account_id, e.amount, e.balance_after FROM e, t
)
SELECT id FROM t`

// Post writes t inside the caller's SQL transaction q. On any error it has
// written nothing (it may hold row locks until the caller rolls back): it
// fails with ErrInvalid or ErrUnbalanced for a malformed posting,
// ErrUnknownAccount, an *InsufficientFundsError when an account that may not
// go negative would, or ErrDuplicate when t.Reference was posted before.
func Post(ctx context.Context, q Querier, t Transaction) (Posted, error) {
	if err := t.validate(); err != nil {
		return Posted{}, err
	}
	ids, amounts, after, posted, err := lockAndCheck(ctx, q, t.Entries)
	if err != nil {
		return Posted{}, err
	}
	if err := q.QueryRow(ctx, writeSQL, t.Reference, t.Kind, t.Memo, ids, amounts, after).Scan(&posted.ID); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return Posted{}, fmt.Errorf("%w: %s", ErrDuplicate, t.Reference)
		}
		return Posted{}, fmt.Errorf("ledger: write posting: %w", err)
	}
	return posted, nil
}

// lockAndCheck locks the posting's accounts and computes each new balance,
// refusing one that would go below zero where that is not allowed.
func lockAndCheck(ctx context.Context, q Querier, entries []Entry) (ids, amounts, after []int64, posted Posted, err error) {
	integrators := make([]int64, len(entries))
	kinds := make([]string, len(entries))
	wanted := make(map[Account]money.Money, len(entries))
	for i, e := range entries {
		integrators[i], kinds[i] = e.Account.Integrator, string(e.Account.Kind)
		wanted[e.Account] = e.Amount
	}
	rows, err := q.Query(ctx, lockAccountsSQL, integrators, kinds)
	if err != nil {
		return nil, nil, nil, Posted{}, fmt.Errorf("ledger: lock accounts: %w", err)
	}
	defer rows.Close()
	posted.BalanceAfter = make(map[Account]money.Money, len(entries))
	for rows.Next() {
		var (
			accID, integrator int64
			kind              string
			balance           money.Money
			allowNegative     bool
		)
		if err := rows.Scan(&accID, &integrator, &kind, &balance, &allowNegative); err != nil {
			return nil, nil, nil, Posted{}, fmt.Errorf("ledger: lock accounts: %w", err)
		}
		acc := Account{Integrator: integrator, Kind: Kind(kind)}
		amount := wanted[acc]
		next := balance + amount
		if next < 0 && !allowNegative {
			return nil, nil, nil, Posted{}, &InsufficientFundsError{Account: acc, Balance: balance, Requested: -amount}
		}
		ids, amounts, after = append(ids, accID), append(amounts, int64(amount)), append(after, int64(next))
		posted.BalanceAfter[acc] = next
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, Posted{}, fmt.Errorf("ledger: lock accounts: %w", err)
	}
	for acc := range wanted {
		if _, ok := posted.BalanceAfter[acc]; !ok {
			return nil, nil, nil, Posted{}, fmt.Errorf("%w: %s", ErrUnknownAccount, acc)
		}
	}
	return ids, amounts, after, posted, nil
}
