package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// soakRecordsSQL reads every record of PixGate's that moves money or
// disputes it: charges, withdrawals, refunds, MED returns and infractions
// (at the provider of their charge).
const soakRecordsSQL = `
SELECT 'charge', id::text, integrator_id, coalesce(external_id, ''), provider, coalesce(pix_id, ''), status, amount, fee FROM charges
UNION ALL
SELECT 'withdrawal', id::text, integrator_id, coalesce(external_id, ''), provider, coalesce(pix_id, ''), status, amount, fee FROM withdrawals
UNION ALL
SELECT 'refund', id::text, integrator_id, coalesce(external_id, ''), provider, coalesce(pix_id, ''), status, amount, fee FROM refunds
UNION ALL
SELECT 'med_return', id::text, integrator_id, coalesce(external_id, ''), provider, coalesce(pix_id, ''), status, amount, fee FROM med_returns
UNION ALL
SELECT 'infraction', i.id::text, i.integrator_id, '', c.provider, i.provider_id, i.status, i.amount, 0
FROM infractions i JOIN charges c ON c.id = i.charge_id`

// soakFloatsSQL is each provider's float account, as pixgate provider
// balance reads it (the money at the provider is minus the account).
const soakFloatsSQL = `
SELECT provider, -sum(balance) FROM ledger_accounts WHERE integrator_id IS NULL AND kind = 'provider' GROUP BY provider`

// soakDebtSQL sums how the MED shortfalls were booked and paid back: the
// debt MED returns booked, what failed ones released, what paid charges
// recovered, and the infractions that blocked less than they disputed.
const soakDebtSQL = `
SELECT (SELECT coalesce(sum(amount - covered), 0) FROM med_returns WHERE status <> 'FAILED'),
       (SELECT count(*) FROM med_returns WHERE amount > covered),
       (SELECT coalesce(sum(debt_released), 0) FROM med_returns),
       (SELECT coalesce(sum(debt_recovered), 0) FROM charges),
       (SELECT count(*) FROM charges WHERE debt_recovered > 0),
       (SELECT count(*) FROM infractions WHERE blocked_amount < amount)`

// debtFigures are how the run's MED shortfalls were booked and recovered.
type debtFigures struct {
	booked, released, recovered int64
	returns, charges, shortfall int64 // counts
}

// soakFacts reads what the checker compares: every sandbox's ledger, and
// PixGate's records, postings, wallets and float accounts.
func soakFacts(ctx context.Context, c *cluster, sbs []*sandboxClient, ins []*integrator) (checkInput, debtFigures, error) {
	var in checkInput
	var debt debtFigures
	for _, sb := range sbs {
		txns, err := sb.transactions(ctx)
		if err != nil {
			return in, debt, fmt.Errorf("the ledger of sandbox %s: %w", sb.name, err)
		}
		in.sandbox = append(in.sandbox, txns...)
	}
	index := map[int64]int{}
	for i, ig := range ins {
		index[ig.id] = i
		in.integrators = append(in.integrators, checkIntegrator{name: ig.name, credit: ig.credit, in: ig.in, out: ig.out})
	}
	byRef := map[string]*pgRec{}
	rows, _ := c.db.Query(ctx, soakRecordsSQL)
	var (
		r            pgRec
		integratorID int64
	)
	if _, err := pgx.ForEachRow(rows, []any{&r.kind, &r.id, &integratorID, &r.externalID, &r.provider, &r.providerID, &r.status, &r.amount, &r.fee}, func() error {
		rec := r
		rec.integrator = -1
		if i, ok := index[integratorID]; ok {
			rec.integrator = i
		}
		in.records = append(in.records, rec)
		return nil
	}); err != nil {
		return in, debt, fmt.Errorf("records: %w", err)
	}
	for i := range in.records {
		byRef[in.records[i].kind+":"+in.records[i].id] = &in.records[i]
	}
	var (
		typ, id string
		sum     int64
	)
	rows, _ = c.db.Query(ctx, effectsSQL)
	if _, err := pgx.ForEachRow(rows, []any{&typ, &id, &integratorID, &sum}, func() error {
		if typ == "adjustment" {
			return nil
		}
		if rec := byRef[typ+":"+id]; rec != nil {
			rec.effect += sum
			return nil
		}
		if in.stray == nil {
			in.stray = map[string]int64{}
		}
		in.stray[typ+":"+id] += sum
		return nil
	}); err != nil {
		return in, debt, fmt.Errorf("ledger: %w", err)
	}
	for _, ig := range ins {
		w, err := soakWalletOf(ctx, c, ig.id)
		if err != nil {
			return in, debt, err
		}
		in.wallets = append(in.wallets, w)
	}
	in.floats = map[string]int64{}
	var name string
	rows, _ = c.db.Query(ctx, soakFloatsSQL)
	if _, err := pgx.ForEachRow(rows, []any{&name, &sum}, func() error {
		in.floats[name] = sum
		return nil
	}); err != nil {
		return in, debt, fmt.Errorf("floats: %w", err)
	}
	err := c.db.QueryRow(ctx, soakDebtSQL).Scan(&debt.booked, &debt.returns, &debt.released, &debt.recovered, &debt.charges, &debt.shortfall)
	return in, debt, err
}

// soakWalletOf is `pixgate wallet show --json`, debt and blocked
// included.
func soakWalletOf(ctx context.Context, c *cluster, id int64) (soakWallet, error) {
	out, err := c.pixgate(ctx, "wallet", "show", "--integrator", strconv.FormatInt(id, 10), "--json")
	if err != nil {
		return soakWallet{}, err
	}
	var v struct{ Available, Pending, Reserved, Blocked, Debt json.Number }
	if err := json.Unmarshal(out, &v); err != nil {
		return soakWallet{}, fmt.Errorf("wallet show: %w", err)
	}
	return soakWallet{centavos(v.Available), centavos(v.Pending), centavos(v.Reserved), centavos(v.Blocked), centavos(v.Debt)}, nil
}

// byName indexes pixgate provider balance's readings by provider.
func byName(rs []floatReading) map[string]floatReading {
	out := map[string]floatReading{}
	for _, r := range rs {
		out[r.provider] = r
	}
	return out
}

// auditProviders runs `pixgate audit --providers`, which checks each
// provider's balance against its float and its statements' transfers
// against PixGate's records, where the binary has it: "clean", "not in
// this binary", or the violations.
func auditProviders(ctx context.Context, c *cluster) string {
	out, err := c.pixgateWith(ctx, operatorEnv, "audit", "--providers")
	switch {
	case err == nil:
		return "clean"
	case strings.Contains(err.Error(), "unknown flag"):
		return "not in this binary"
	}
	return fmt.Sprintf("VIOLATIONS: %v %s", err, out)
}
