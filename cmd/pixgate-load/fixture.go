package main

import (
	"context"
	"fmt"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// integrators are the driven integrators: one per connection, each with a
// wallet that covers every withdrawal of the run.
type integrators struct {
	ids    []int64
	tokens []string
}

func newIntegrators(ctx context.Context, db *storage.DB, n int) (integrators, error) {
	in := integrators{ids: make([]int64, n), tokens: make([]string, n)}
	for i := range n {
		rec, creds, err := db.CreateIntegrator(ctx, storage.NewIntegrator{
			Name: fmt.Sprintf("Loja Carga %d", i), Email: fmt.Sprintf("carga%d@loja.example", i),
			CashIn: money.Percent(15000), CashOut: money.Fixed(50)})
		if err != nil {
			return in, err
		}
		if _, err := db.CreditWallet(ctx, rec.ID, 100_000_000_00, "load float"); err != nil {
			return in, err
		}
		in.ids[i], in.tokens[i] = rec.ID, "Bearer "+creds.Token()
	}
	return in, nil
}

// fillIntegrators adds n integrators that are never driven, each with its
// three accounts and an API key, as a deployment with many integrators
// has them, and refreshes the planner's statistics. It writes the tables
// directly: creating them one by one would take minutes.
func fillIntegrators(ctx context.Context, db *storage.DB, n int) error {
	_, err := db.Pool().Exec(ctx, `
		WITH i AS (
		  INSERT INTO integrators (name, email, cashin_fee_kind, cashin_fee_value, cashout_fee_kind, cashout_fee_value, webhook_secret)
		  SELECT 'Filler ' || g, 'filler-' || g || '-' || gen_random_uuid() || '@example.com', 'percent', 15000, 'fixed', 50,
		         md5(random()::text) || md5(random()::text)
		  FROM generate_series(1, $1) g
		  RETURNING id
		), a AS (
		  INSERT INTO ledger_accounts (integrator_id, kind) SELECT i.id, k FROM i, unnest('{available,pending,reserved}'::text[]) k
		)
		INSERT INTO api_keys (integrator_id, public_id, secret_hash, scopes)
		SELECT i.id, 'pk_fill' || replace(gen_random_uuid()::text, '-', ''), sha256(convert_to(gen_random_uuid()::text, 'UTF8')), $2 FROM i`,
		n, storage.AllScopes)
	if err != nil {
		return fmt.Errorf("filler integrators: %w", err)
	}
	_, err = db.Pool().Exec(ctx, `ANALYZE integrators, ledger_accounts, api_keys`)
	return err
}
