package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Violation is one broken ledger invariant.
type Violation struct {
	Check  string `json:"check"`
	Detail string `json:"detail"`
}

func (v Violation) String() string { return v.Check + ": " + v.Detail }

// auditChecks each return one row per violation, as a single text column.
var auditChecks = []struct{ name, sql string }{
	{"transaction_unbalanced", `
		SELECT format('transaction %s (%s) sums to %s over %s entries', t.id, t.reference, coalesce(sum(e.amount), 0), count(e.id))
		FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
		GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2`},
	{"balance_mismatch", `
		SELECT format('account %s (%s %s) has balance %s but its entries sum to %s',
		       a.id, coalesce('integrator ' || a.integrator_id, 'platform'), a.kind, a.balance, coalesce(s.total, 0))
		FROM ledger_accounts a
		LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) s ON s.account_id = a.id
		WHERE a.balance <> coalesce(s.total, 0)`},
	{"balance_after_mismatch", `
		SELECT format('entry %s on account %s records balance_after %s but the running sum is %s', id, account_id, balance_after, running)
		FROM (SELECT id, account_id, balance_after, sum(amount) OVER (PARTITION BY account_id ORDER BY id) AS running
		      FROM ledger_entries) r
		WHERE balance_after <> running`},
	{"negative_balance", `
		SELECT format('account %s (%s %s) is negative: %s', id, coalesce('integrator ' || integrator_id, 'platform'), kind, balance)
		FROM ledger_accounts WHERE NOT allow_negative AND balance < 0`},
	{"reserved_mismatch", `
		SELECT format('integrator %s reserved balance is %s but in-flight withdrawals and refunds hold %s',
		       a.integrator_id, a.balance, coalesce(h.held, 0))
		FROM ledger_accounts a
		LEFT JOIN (
		    SELECT integrator_id, sum(amount + fee) AS held FROM (
		        SELECT integrator_id, amount, fee FROM withdrawals WHERE status = 'PROCESSING'
		        UNION ALL
		        SELECT integrator_id, amount, fee FROM refunds WHERE status = 'PROCESSING') f
		    GROUP BY integrator_id) h ON h.integrator_id = a.integrator_id
		WHERE a.kind = 'reserved' AND a.balance <> coalesce(h.held, 0)`},
	{"ledger_not_zero", `
		SELECT format('all account balances sum to %s, not zero', sum(balance)) FROM ledger_accounts HAVING sum(balance) <> 0`},
}

// Audit checks every ledger invariant and returns the violations found: each
// transaction sums to zero; each account balance equals the sum of its
// entries and each entry's balance_after the running sum; no account that
// may not go negative is negative; each integrator's reserved balance equals
// what its in-flight withdrawals and refunds hold; the whole ledger sums to
// zero. It reads one consistent snapshot.
func (db *DB) Audit(ctx context.Context) ([]Violation, error) {
	var found []Violation
	err := pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		for _, c := range auditChecks {
			rows, err := tx.Query(ctx, c.sql)
			if err != nil {
				return fmt.Errorf("storage: audit %s: %w", c.name, err)
			}
			details, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return fmt.Errorf("storage: audit %s: %w", c.name, err)
			}
			for _, d := range details {
				found = append(found, Violation{Check: c.name, Detail: d})
			}
		}
		return nil
	})
	return found, err
}
