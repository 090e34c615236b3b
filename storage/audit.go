package storage

import (
	"context"
	"fmt"
	"strings"

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
		    SELECT integrator_id, sum(amount + fee) AS held FROM (` + inFlightTransfersSQL() + `) f
		    GROUP BY integrator_id) h ON h.integrator_id = a.integrator_id
		WHERE a.kind = 'reserved' AND a.balance <> coalesce(h.held, 0)`},
	{"pending_mismatch", `
		SELECT format('integrator %s pending balance is %s but its paid charges still hold %s',
		       a.integrator_id, a.balance, coalesce(h.held, 0))
		FROM ledger_accounts a
		LEFT JOIN (SELECT integrator_id, sum(held) AS held FROM (` + chargesHeldSQL + `) c GROUP BY integrator_id) h
		       ON h.integrator_id = a.integrator_id
		WHERE a.kind = 'pending' AND a.balance <> coalesce(h.held, 0)`},
	{"held_mismatch", `
		SELECT format('charge %s records %s held but holds %s', id, held_amount, held)
		FROM (` + chargesHeldSQL + `) c WHERE held_amount <> held`},
	{"blocked_mismatch", `
		SELECT format('integrator %s blocked balance is %s but its open infractions block %s',
		       a.integrator_id, a.balance, coalesce(b.blocked, 0))
		FROM ledger_accounts a
		LEFT JOIN (SELECT integrator_id, sum(blocked_amount) AS blocked FROM infractions WHERE status = 'OPEN' AND updated_at IS NOT NULL GROUP BY integrator_id) b
		       ON b.integrator_id = a.integrator_id
		WHERE a.kind = 'blocked' AND a.balance <> coalesce(b.blocked, 0)`},
	{"debt_mismatch", `
		SELECT format('integrator %s debt is %s but its MED returns booked %s and its cash-ins and failed returns paid back %s',
		       a.integrator_id, -a.balance, coalesce(m.booked, 0), coalesce(m.released, 0) + coalesce(c.recovered, 0))
		FROM ledger_accounts a
		LEFT JOIN (SELECT integrator_id, sum(amount - covered) AS booked, sum(debt_released) AS released FROM med_returns
		           GROUP BY integrator_id) m ON m.integrator_id = a.integrator_id
		LEFT JOIN (SELECT integrator_id, sum(debt_recovered) AS recovered FROM charges WHERE debt_recovered > 0
		           GROUP BY integrator_id) c ON c.integrator_id = a.integrator_id
		WHERE a.kind = 'debt' AND -a.balance <> coalesce(m.booked, 0) - coalesce(m.released, 0) - coalesce(c.recovered, 0)`},
	{"debt_positive", `
		SELECT format('integrator %s debt account is %s: a debt is never above zero', integrator_id, balance)
		FROM ledger_accounts WHERE kind = 'debt' AND balance > 0`},
	{"float_mismatch", `
		SELECT format('provider %s float is %s but its records make it %s', f.provider, f.balance, coalesce(x.expected, 0))
		FROM (SELECT provider, sum(balance) AS balance FROM ledger_accounts WHERE integrator_id IS NULL AND kind = 'provider'
		      GROUP BY provider) f
		LEFT JOIN (SELECT provider, sum(effect) AS expected FROM (` + floatEffectsSQL() + `) e GROUP BY provider) x
		       ON x.provider = f.provider
		WHERE f.balance <> coalesce(x.expected, 0)`},
	{"split_mismatch", splitMismatchSQL},
	{"ledger_not_zero", `
		SELECT format('all account balances sum to %s, not zero', sum(balance)) FROM ledger_accounts HAVING sum(balance) <> 0`},
}

// inFlightTransfersSQL lists the PROCESSING transfers of every kind, and
// the withdrawals AWAITING_APPROVAL (reserved as well): integrator_id,
// amount, fee. (updated_at is never null: saying so lets the in-flight
// partial index serve the query, migration 28.)
func inFlightTransfersSQL() string {
	each := make([]string, 0, len(TransferKinds)+1)
	for _, k := range TransferKinds {
		each = append(each, `SELECT integrator_id, amount, fee FROM `+k.spec().table+` WHERE status = 'PROCESSING' AND updated_at IS NOT NULL`)
	}
	each = append(each, `SELECT integrator_id, amount, fee FROM withdrawals WHERE status = 'AWAITING_APPROVAL'`)
	return strings.Join(each, " UNION ALL ")
}

// floatEffectsSQL lists what each record did to its provider's float
// (provider, effect), derived from the records rather than the entries:
// a paid charge took its amount in (the float, the counterpart, goes
// down), a completed transfer sent its amount out, and a float operation
// or a reconciliation adjustment (transaction kind float.*), which has no
// record, moved what its entries say.
func floatEffectsSQL() string {
	each := []string{`SELECT provider, -amount AS effect FROM charges WHERE status IN ('PAID', 'REFUNDED')`}
	for _, k := range TransferKinds {
		each = append(each, `SELECT provider, amount FROM `+k.spec().table+` WHERE status = 'COMPLETED'`)
	}
	each = append(each, `SELECT a.provider, e.amount FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
		JOIN ledger_accounts a ON a.id = e.account_id WHERE t.kind LIKE 'float.%' AND a.kind = 'provider'`)
	return strings.Join(each, " UNION ALL ")
}

// chargesHeldSQL derives, for every charge, the part of its net still in
// the pending balance, from the charge, its refunds and its infractions
// rather than from the held_amount the release trusts: the whole net of a
// paid charge not yet released, less what it paid of its integrator's
// debt when paid and what its split's recipients were credited, what refunds took from pending (a failed refund gave its
// part back while the charge was unreleased) and what infractions blocked
// of it (a released one gave it back likewise; an agreed one's left with
// its MED return). Charges paid without a hold were released when paid.
const chargesHeldSQL = `
		SELECT c.id, c.integrator_id, c.held_amount,
		       CASE WHEN c.status IN ('PAID', 'REFUNDED') AND c.released_at IS NULL
		            THEN c.amount - c.fee - c.debt_recovered - coalesce(s.split, 0) - coalesce(r.taken, 0) - coalesce(i.taken, 0) ELSE 0 END AS held
		FROM charges c
		LEFT JOIN (SELECT charge_id, sum(credited) AS split FROM charge_splits GROUP BY charge_id) s ON s.charge_id = c.id
		LEFT JOIN (SELECT charge_id, sum(from_pending) AS taken FROM refunds WHERE status <> 'FAILED' GROUP BY charge_id) r
		       ON r.charge_id = c.id
		LEFT JOIN (SELECT charge_id, sum(from_pending) AS taken FROM infractions WHERE status IN ('OPEN', 'AGREED') GROUP BY charge_id) i
		       ON i.charge_id = c.id`

// Audit checks every ledger invariant and returns the violations found: each
// transaction sums to zero; each account balance equals the sum of its
// entries and each entry's balance_after the running sum; no account that
// may not go negative is negative; each integrator's reserved balance equals
// what its in-flight withdrawals and refunds hold, and its pending balance
// what its paid charges still hold under a settlement hold (each charge's
// held amount agreeing), and its blocked balance what its open infractions
// block, and its debt what its MED returns booked less what its cash-ins
// and failed returns paid back (never above zero); each provider's float equals what its paid charges, completed
// transfers and float operations did to it; the whole ledger sums to zero.
// It reads one consistent snapshot.
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
