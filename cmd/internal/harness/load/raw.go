package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The raw reservation: the least any reservation can do on this Postgres,
// with no PixGate code. Each client debits accounts of its own (no lock is
// shared), as PixGate's withdrawal create does for one integrator per
// connection.
const (
	rawClients  = 32
	rawAccounts = 64
	rawPipeline = 16
)

const rawSchema = `
CREATE TABLE raw_accounts (id bigint PRIMARY KEY, balance bigint NOT NULL);
CREATE TABLE raw_transfers (id bigserial PRIMARY KEY, account_id bigint NOT NULL, amount bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
INSERT INTO raw_accounts SELECT g, 1000000000000 FROM generate_series(1, 64) g;`

const rawOneStatement = `
WITH a AS (SELECT id FROM raw_accounts WHERE id = $1 FOR UPDATE),
u AS (UPDATE raw_accounts r SET balance = balance - $2 FROM a WHERE r.id = a.id RETURNING r.id)
INSERT INTO raw_transfers (account_id, amount) SELECT id, $2 FROM u`

// rawVariant is one way of running the reservation; op runs n
// reservations (n is 1 except for the pipelined variant).
type rawVariant struct {
	name, desc string
	perOp      int
	op         func(ctx context.Context, pool *pgxpool.Pool, account int64) error
}

var rawVariants = []rawVariant{
	{"raw-tx", "raw reservation tx (BEGIN; SELECT … FOR UPDATE; UPDATE; INSERT; COMMIT), 32 clients", 1,
		func(ctx context.Context, pool *pgxpool.Pool, acc int64) error {
			return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				var bal int64
				if err := tx.QueryRow(ctx, `SELECT balance FROM raw_accounts WHERE id = $1 FOR UPDATE`, acc).Scan(&bal); err != nil {
					return err
				}
				if _, err := tx.Exec(ctx, `UPDATE raw_accounts SET balance = balance - $2 WHERE id = $1`, acc, 150); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `INSERT INTO raw_transfers (account_id, amount) VALUES ($1, $2)`, acc, 150)
				return err
			})
		}},
	{"raw-one", "the same reservation as one statement (CTEs), one round trip", 1,
		func(ctx context.Context, pool *pgxpool.Pool, acc int64) error {
			_, err := pool.Exec(ctx, rawOneStatement, acc, 150)
			return err
		}},
	{"raw-pipelined", fmt.Sprintf("%d reservations pipelined in one transaction, per reservation", rawPipeline), rawPipeline,
		func(ctx context.Context, pool *pgxpool.Pool, acc int64) error {
			b := &pgx.Batch{}
			b.Queue(`BEGIN`)
			for range rawPipeline {
				b.Queue(`SELECT balance FROM raw_accounts WHERE id = $1 FOR UPDATE`, acc)
				b.Queue(`UPDATE raw_accounts SET balance = balance - $2 WHERE id = $1`, acc, 150)
				b.Queue(`INSERT INTO raw_transfers (account_id, amount) VALUES ($1, $2)`, acc, 150)
			}
			b.Queue(`COMMIT`)
			return pool.SendBatch(ctx, b).Close()
		}},
}

// runRaw measures each variant with rawClients clients for measure, after
// warmup.
func runRaw(ctx context.Context, t *topology, warmup, measure time.Duration) (map[string]phase, error) {
	cfg, err := pgxpool.ParseConfig(t.dbURL)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = rawClients
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, rawSchema); err != nil {
		return nil, fmt.Errorf("raw schema: %w", err)
	}
	out := map[string]phase{}
	for _, v := range rawVariants {
		var c collector
		var failed atomic.Value
		cctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for g := range rawClients {
			wg.Go(func() {
				for i := 0; cctx.Err() == nil; i++ {
					acc := int64(g+rawClients*(i%2))%rawAccounts + 1
					start := time.Now()
					err := v.op(cctx, pool, acc)
					if err != nil && cctx.Err() == nil {
						failed.CompareAndSwap(nil, err)
					}
					lat := time.Since(start)
					for range v.perOp {
						c.record(lat, err == nil, "")
					}
				}
			})
		}
		res, pr := c.window(ctx, t, warmup, measure)
		cancel()
		wg.Wait()
		u := pr.finish(ctx)
		if err, _ := failed.Load().(error); err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
		out[v.name] = phase{Name: v.name, Desc: v.desc, Result: res, Usage: u, NoLatency: v.perOp > 1}
	}
	return out, nil
}
