package load

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
)

// The arch lifecycle is the lifecycle's yardstick: the least the
// architecture's own durable steps cost on this machine, done by a small
// program with no framework and no queue library. Per withdrawal:
//
//  1. commit: reserve (the wallet's conditional debit, the withdrawal row,
//     its postings) with an outbox row for the send; hop 1 through Redis;
//  2. commit: the send consumer claims the withdrawal (SENDING, its outbox
//     row deleted); it POSTs the send to the provider, a process of its
//     own (arch_provider.go);
//  3. commit: the send recorded (the provider's id, SENT);
//  4. commit: the provider's notification stored raw with an outbox row
//     for the event, answered 200 at once; hop 2;
//  5. commit: the event consumer consults the provider, then settles
//     (COMPLETED, postings, a postback row with its outbox row, the
//     event's outbox row deleted); hop 3;
//  6. commit: the postback consumer signs and POSTs the postback to the
//     harness's receiver, then records the attempt (the postback
//     delivered, its outbox row deleted).
//
// Six commits and three Redis hops (LPUSH, BLMOVE, LREM each) a
// lifecycle, bareClients in flight closed-loop over bareWallets wallets
// as the bare lifecycle runs. Its statements are counted in-process the
// way PixGate's are (storage.StatementCounter).
const (
	archConsumers = bareClients // per queue
	archConns     = 24          // Postgres connections: about what one PixGate process holds
	archWait      = 30 * time.Second
)

// archPostbackPath is where on the receiver the arch lifecycle's
// postbacks go.
const archPostbackPath = "/arch-postbacks"

const archSchema = `
CREATE TABLE IF NOT EXISTS arch_wallets (id bigint PRIMARY KEY, available bigint NOT NULL CHECK (available >= 0), reserved bigint NOT NULL CHECK (reserved >= 0));
CREATE TABLE IF NOT EXISTS arch_withdrawals (id uuid PRIMARY KEY, wallet_id bigint NOT NULL, amount bigint NOT NULL, fee bigint NOT NULL,
  status text NOT NULL, pix_id text, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS arch_postings (id bigserial PRIMARY KEY, withdrawal_id uuid NOT NULL, account text NOT NULL, amount bigint NOT NULL);
CREATE TABLE IF NOT EXISTS arch_outbox (kind text NOT NULL, ref uuid NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (kind, ref));
CREATE TABLE IF NOT EXISTS arch_events (id uuid PRIMARY KEY, pix_id text NOT NULL, status text NOT NULL, body bytea NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(), UNIQUE (pix_id, status));
CREATE TABLE IF NOT EXISTS arch_postbacks (id uuid PRIMARY KEY, withdrawal_id uuid NOT NULL, body bytea NOT NULL, status text NOT NULL, delivered_at timestamptz);
CREATE TABLE IF NOT EXISTS arch_attempts (id bigserial PRIMARY KEY, postback_id uuid NOT NULL, status_code int NOT NULL, latency_us bigint NOT NULL,
  error text, at timestamptz NOT NULL DEFAULT now());
INSERT INTO arch_wallets SELECT g, 1000000000000, 0 FROM generate_series(1, 64) g ON CONFLICT DO NOTHING;`

// arch is one arch lifecycle program: its pool, its queues, its
// notification server and its clients.
type arch struct {
	pool                   *pgxpool.Pool
	statements             *storage.StatementCounter
	rdb                    *redis.Client
	sends, events, pbQueue archQueue
	http                   *http.Client
	provider               string // the provider process's base URL
	postbacks              string // the harness's receiver
	secret                 []byte
	waiting                sync.Map // withdrawal id → chan struct{}, signalled when its postback was received
	failed                 atomic.Value
	reserved, completed    atomic.Int64
	stopConsumers          func() // stops the queues' consumers and waits for them
}

func (a *arch) fail(err error) { a.failed.CompareAndSwap(nil, err) }

// startArch starts one arch lifecycle program on t: its schema, its pool
// with every connection open (the probe counts the Postgres backends open
// when it starts), its queues' consumers, its notification server and its
// provider process. stop ends it.
func startArch(ctx context.Context, t *topology, recvURL string) (a *arch, stop func(), err error) {
	var undo []func()
	stop = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	defer func() {
		if err != nil {
			stop()
		}
	}()
	cfg, err := pgxpool.ParseConfig(t.dbURL)
	if err != nil {
		return nil, nil, err
	}
	cfg.MaxConns = archConns
	counter := &storage.StatementCounter{}
	cfg.ConnConfig.Tracer = counter
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, pool.Close)
	if _, err := pool.Exec(ctx, archSchema); err != nil {
		return nil, nil, fmt.Errorf("arch schema: %w", err)
	}
	if err := openAll(ctx, pool, archConns); err != nil {
		return nil, nil, err
	}
	rdb := redis.NewClient(&redis.Options{Addr: t.redisAddr, PoolSize: 3*archConsumers + 2*bareClients})
	undo = append(undo, func() { _ = rdb.Close() })
	a = &arch{pool: pool, statements: counter, rdb: rdb, postbacks: recvURL + archPostbackPath, secret: []byte("arch-lifecycle-signing-secret"),
		sends: newArchQueue(rdb, "send"), events: newArchQueue(rdb, "event"), pbQueue: newArchQueue(rdb, "postback"),
		http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4 * bareClients, MaxConnsPerHost: 4 * bareClients}}}
	undo = append(undo, a.http.CloseIdleConnections)
	srv, notifyURL, err := serveLoopback(http.HandlerFunc(a.notified))
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, func() { _ = srv.Close() })
	if a.provider, err = t.startArchProvider(ctx, notifyURL); err != nil {
		return nil, nil, err
	}
	undo = append(undo, func() { t.stop(archProviderName) })
	qctx, stopConsumers := context.WithCancel(ctx)
	var consumers sync.WaitGroup
	a.sends.consume(qctx, &consumers, archConsumers, a.send, a.fail)
	a.events.consume(qctx, &consumers, archConsumers, a.settle, a.fail)
	a.pbQueue.consume(qctx, &consumers, archConsumers, a.deliver, a.fail)
	a.stopConsumers = func() { stopConsumers(); consumers.Wait() }
	undo = append(undo, a.stopConsumers)
	return a, stop, nil
}

// openAll opens n connections of pool at once, and keeps them idle.
func openAll(ctx context.Context, pool *pgxpool.Pool, n int) error {
	conns := make([]*pgxpool.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	for range n {
		c, err := pool.Acquire(ctx)
		if err != nil {
			return err
		}
		conns = append(conns, c)
	}
	return nil
}

// finish ends a phase of the arch lifecycle: it waits until every
// lifecycle begun has finished (their commits are the phase's), stops the
// consumers (each has removed its last message), counts the statements
// sent since stm0 and the commits since count began, checks the program's
// work, and reports the phase, its lifecycles those reserved after
// reserved0.
func (a *arch) finish(ctx context.Context, name, desc string, res result, u usage, count commitCount, stm0 uint64, reserved0 int64) (phase, error) {
	if err := waitFor(ctx, archWait, func() bool { return a.completed.Load() >= a.reserved.Load() }); err != nil {
		a.fail(fmt.Errorf("%d of %d lifecycles finished within %s", a.completed.Load(), a.reserved.Load(), archWait))
	}
	a.stopConsumers()
	statements := int64(a.statements.Count() - stm0)
	if err, _ := a.failed.Load().(error); err != nil {
		return phase{}, fmt.Errorf("arch lifecycle: %w", err)
	}
	commits := count.since(ctx)
	if err := a.check(ctx); err != nil {
		return phase{}, fmt.Errorf("arch lifecycle: %w", err)
	}
	return phase{Name: name, Desc: desc, Result: res, Usage: u, Only: []string{"postgres", "redis", archProviderName, "load"},
		Commits: commits, Statements: statements, Lifecycles: int(a.reserved.Load() - reserved0)}, nil
}

// runArch measures the arch lifecycle closed-loop for measure after
// warmup.
func runArch(ctx context.Context, t *topology, recvURL string, warmup, measure time.Duration) (phase, error) {
	a, stop, err := startArch(ctx, t, recvURL)
	if err != nil {
		return phase{}, err
	}
	defer stop()
	var c collector
	cctx, cancel := context.WithCancel(ctx)
	var clients sync.WaitGroup
	count := t.countCommits(ctx)
	stm0 := a.statements.Count()
	for g := range bareClients {
		clients.Go(func() {
			for i := 0; cctx.Err() == nil; i++ {
				wallet := int64(g+bareClients*(i%2))%bareWallets + 1
				start := time.Now()
				err := a.lifecycle(cctx, wallet)
				if err != nil && cctx.Err() == nil {
					a.fail(err)
				}
				c.record(time.Since(start), err == nil, "")
			}
		})
	}
	res, pr := c.window(ctx, t, warmup, measure)
	u := pr.finish(ctx)
	cancel()
	clients.Wait()
	return a.finish(ctx, "arch", fmt.Sprintf("arch lifecycle: the architecture's durable steps, 6 commits and 3 Redis hops a withdrawal, the provider a process of its own, "+
		"no framework, no queue library, %d in flight over %d wallets", bareClients, bareWallets), res, u, count, stm0, 0)
}

// check, after the phase (its commits counted), that the arch lifecycle
// did its work: every withdrawal COMPLETED, every postback delivered,
// no outbox row and no message left, the postings balanced.
func (a *arch) check(ctx context.Context) error {
	var open, undelivered, outbox, sum int64
	err := a.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM arch_withdrawals WHERE status <> 'COMPLETED'),
		(SELECT count(*) FROM arch_postbacks WHERE status <> 'DELIVERED'), (SELECT count(*) FROM arch_outbox),
		(SELECT coalesce(sum(amount), 0) FROM arch_postings)`).Scan(&open, &undelivered, &outbox, &sum)
	if err != nil {
		return err
	}
	var left int64
	for _, q := range []archQueue{a.sends, a.events, a.pbQueue} {
		for _, key := range []string{q.pending, q.active} {
			n, err := a.rdb.LLen(ctx, key).Result()
			if err != nil {
				return err
			}
			left += n
		}
	}
	if open != 0 || undelivered != 0 || outbox != 0 || sum != 0 || left != 0 {
		return fmt.Errorf("not done: %d withdrawals not completed, %d postbacks not delivered, %d outbox rows, postings sum to %d, %d messages left",
			open, undelivered, outbox, sum, left)
	}
	return nil
}

// lifecycle is one withdrawal: commit 1 and hop 1, then waiting for its
// postback to be received (the consumers do the rest). Once begun it
// finishes even when the phase ends meanwhile.
func (a *arch) lifecycle(ctx context.Context, wallet int64) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	received := make(chan struct{}, 1)
	a.waiting.Store(id, received)
	defer a.waiting.Delete(id)
	bctx := context.WithoutCancel(ctx)
	if err := a.reserve(bctx, id, wallet); err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	a.reserved.Add(1)
	if err := a.sends.push(bctx, id.String()); err != nil {
		return err
	}
	select {
	case <-received:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reserve is commit 1, two pipelined round trips: BEGIN with the wallet's
// conditional debit; then the withdrawal, its postings and the send's
// outbox row with COMMIT.
func (a *arch) reserve(ctx context.Context, id uuid.UUID, wallet int64) error {
	total := int64(bareAmount + bareFee)
	return a.inTx(ctx, func(b *pgx.Batch) {
		b.Queue(`UPDATE arch_wallets SET available = available - $2, reserved = reserved + $2 WHERE id = $1 AND available >= $2`, wallet, total)
	}, func(br pgx.BatchResults) error {
		tag, err := br.Exec()
		if err == nil && tag.RowsAffected() != 1 {
			err = errors.New("insufficient funds")
		}
		return err
	}, func(b *pgx.Batch) {
		b.Queue(`INSERT INTO arch_withdrawals (id, wallet_id, amount, fee, status) VALUES ($1, $2, $3, $4, 'PROCESSING')`, id, wallet, bareAmount, bareFee)
		b.Queue(`INSERT INTO arch_postings (withdrawal_id, account, amount) VALUES ($1, 'available', $2), ($1, 'reserved', $3)`, id, -total, total)
		b.Queue(`INSERT INTO arch_outbox (kind, ref) VALUES ('send', $1)`, id)
	})
}

// inTx runs one transaction as two pipelined round trips: BEGIN and
// first, whose answers decide reads; then rest and COMMIT. When decide
// fails the transaction is rolled back.
func (a *arch) inTx(ctx context.Context, first func(*pgx.Batch), decide func(pgx.BatchResults) error, rest func(*pgx.Batch)) error {
	conn, err := a.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	first(b)
	br := conn.SendBatch(ctx, b)
	_, err = br.Exec()
	if err == nil {
		err = decide(br)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_, _ = conn.Exec(ctx, `ROLLBACK`)
		return err
	}
	b = &pgx.Batch{}
	rest(b)
	b.Queue(`COMMIT`)
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		_, _ = conn.Exec(ctx, `ROLLBACK`)
		return err
	}
	return nil
}
