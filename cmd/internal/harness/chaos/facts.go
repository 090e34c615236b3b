package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// recordsSQL reads every charge, withdrawal and refund with when its final
// status was written: the creation time of its postback, which PixGate
// writes in the transaction that changes the status.
const recordsSQL = `
SELECT 'charge', integrator_id, external_id, id::text, status, amount, fee, created_at, provider FROM charges
UNION ALL
SELECT 'withdrawal', integrator_id, coalesce(external_id, ''), id::text, status, amount, fee, created_at, provider FROM withdrawals
UNION ALL
SELECT 'refund', integrator_id, coalesce(external_id, ''), id::text, status, amount, fee, created_at, provider FROM refunds`

const finalAtSQL = `
SELECT resource_type, resource_id::text, max(created_at) FROM postbacks
WHERE event IN ('PAID', 'EXPIRED', 'COMPLETED', 'FAILED') GROUP BY 1, 2`

// effectsSQL sums each record's postings on integrator accounts; the
// reference names the record ("withdrawal:<id>:settle", docs/ledger.md).
const effectsSQL = `
SELECT split_part(t.reference, ':', 1), split_part(t.reference, ':', 2), a.integrator_id, sum(e.amount)
FROM ledger_entries e
JOIN ledger_transactions t ON t.id = e.transaction_id
JOIN ledger_accounts a ON a.id = e.account_id
WHERE a.integrator_id IS NOT NULL
GROUP BY 1, 2, 3`

// collectFacts reads PixGate's side from its database and its operator
// commands, the providers' from every sandbox and the postbacks from the
// receiver. The problems are facts that contradict the ledger's rules.
func collectFacts(ctx context.Context, c *cluster, sbs []*sandboxClient, ins []*integrator) (facts, bool, []string, error) {
	f := facts{pg: map[string]*pgRecord{}}
	index := map[int64]int{}
	for i, in := range ins {
		index[in.id] = i
	}
	byID := map[string]*pgRecord{}
	owner := map[string]int64{}
	rows, _ := c.db.Query(ctx, recordsSQL)
	var (
		integratorID int64
		pr           pgRecord
	)
	_, err := pgx.ForEachRow(rows, []any{&pr.kind, &integratorID, &pr.externalID, &pr.id, &pr.status, &pr.amount, &pr.fee, &pr.createdAt, &pr.provider}, func() error {
		rec := pr
		i, ok := index[integratorID]
		if !ok {
			return fmt.Errorf("%s %s of unknown integrator %d", rec.kind, rec.id, integratorID)
		}
		f.pg[extKey(rec.kind, i, rec.externalID)] = &rec
		byID[string(rec.kind)+":"+rec.id] = &rec
		owner[string(rec.kind)+":"+rec.id] = integratorID
		return nil
	})
	if err != nil {
		return f, false, nil, fmt.Errorf("records: %w", err)
	}
	var (
		typ, id string
		at      time.Time
	)
	rows, _ = c.db.Query(ctx, finalAtSQL)
	if _, err := pgx.ForEachRow(rows, []any{&typ, &id, &at}, func() error {
		if r := byID[typ+":"+id]; r != nil {
			r.finalAt = at
		}
		return nil
	}); err != nil {
		return f, false, nil, fmt.Errorf("postbacks: %w", err)
	}
	var (
		problems []string
		sum      int64
	)
	rows, _ = c.db.Query(ctx, effectsSQL)
	if _, err := pgx.ForEachRow(rows, []any{&typ, &id, &integratorID, &sum}, func() error {
		if typ == "adjustment" {
			return nil
		}
		r := byID[typ+":"+id]
		switch {
		case r == nil:
			problems = append(problems, fmt.Sprintf("postings of %s:%s, which is no record", typ, id))
		case owner[typ+":"+id] != integratorID:
			problems = append(problems, fmt.Sprintf("postings of %s:%s on integrator %d's accounts", typ, id, integratorID))
		default:
			r.effect += sum
		}
		return nil
	}); err != nil {
		return f, false, nil, fmt.Errorf("ledger: %w", err)
	}
	for _, in := range ins {
		w, err := walletOf(ctx, c, in.id)
		if err != nil {
			return f, false, nil, err
		}
		f.wallets = append(f.wallets, w)
	}
	all := true
	for _, sb := range sbs {
		txns, ok, err := sb.ledger(ctx)
		if err != nil {
			return f, false, nil, fmt.Errorf("the ledger of sandbox %s: %w", sb.name, err)
		}
		f.provider, all = append(f.provider, txns...), all && ok
	}
	if !all {
		f.provider = nil
	}
	f.events = c.recv.Snapshot().Events
	return f, all, problems, nil
}

// walletOf is `pixgate wallet show --json`.
func walletOf(ctx context.Context, c *cluster, id int64) (wallet, error) {
	out, err := c.pixgate(ctx, "wallet", "show", "--integrator", strconv.FormatInt(id, 10), "--json")
	if err != nil {
		return wallet{}, err
	}
	var v struct{ Available, Pending, Reserved json.Number }
	if err := json.Unmarshal(out, &v); err != nil {
		return wallet{}, fmt.Errorf("wallet show: %w", err)
	}
	return wallet{centavos(v.Available), centavos(v.Pending), centavos(v.Reserved)}, nil
}

// centavos reads a JSON amount in reais ("12.5", "12.50").
func centavos(n json.Number) int64 {
	s := string(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	frac = (frac + "00")[:2]
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	if neg {
		return -(w*100 + f)
	}
	return w*100 + f
}
