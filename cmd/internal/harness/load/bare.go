package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The bare lifecycle is the least a cash-out lifecycle can cost on this
// machine: a small program with no framework and no queue that, per
// withdrawal, commits the reservation (lock the wallet, move amount + fee
// to reserved, insert the record and its postings), POSTs it to a minimal
// provider, takes the provider's notification on its own HTTP server,
// commits the settlement (status, postings, a postback row), POSTs a
// signed postback to the harness's receiver and commits the delivery:
// three commits and three HTTP requests. bareClients run it closed-loop
// over bareWallets wallets. PixGate's lifecycle figures are stated as
// ratios of it, measured in the same run.
const (
	bareClients = 32
	bareWallets = 64
	bareAmount  = 100
	bareFee     = 50
)

// barePostbackPath is where on the receiver the bare lifecycle's
// postbacks go.
const barePostbackPath = "/bare-postbacks"

const bareSchema = `
CREATE TABLE IF NOT EXISTS bare_wallets (id bigint PRIMARY KEY, available bigint NOT NULL CHECK (available >= 0), reserved bigint NOT NULL CHECK (reserved >= 0));
CREATE TABLE IF NOT EXISTS bare_withdrawals (id uuid PRIMARY KEY, wallet_id bigint NOT NULL, amount bigint NOT NULL, fee bigint NOT NULL,
  status text NOT NULL, pix_id text, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS bare_postings (id bigserial PRIMARY KEY, withdrawal_id uuid NOT NULL, account text NOT NULL, amount bigint NOT NULL);
CREATE TABLE IF NOT EXISTS bare_postbacks (id uuid PRIMARY KEY, withdrawal_id uuid NOT NULL, body bytea NOT NULL, status text NOT NULL, delivered_at timestamptz);
INSERT INTO bare_wallets SELECT g, 1000000000000, 0 FROM generate_series(1, 64) g ON CONFLICT DO NOTHING;`

// bare is one bare lifecycle program: its pool, its provider, its own
// notification server and its clients.
type bare struct {
	pool       *pgxpool.Pool
	http       *http.Client
	provider   string // the minimal provider's base URL
	self       string // the program's own notification URL
	postbacks  string // the harness's receiver
	secret     []byte
	waiting    sync.Map // withdrawal id → chan error, closed when its postback is delivered
	servers    []*http.Server
	inflight   sync.WaitGroup
	notifyFail atomic.Value
	reserved   atomic.Int64 // lifecycles begun: each commits all three
}

// runBare measures the bare lifecycle for measure after warmup.
func runBare(ctx context.Context, t *topology, recvURL string, warmup, measure time.Duration) (phase, error) {
	cfg, err := pgxpool.ParseConfig(t.dbURL)
	if err != nil {
		return phase{}, err
	}
	cfg.MaxConns = 2 * bareClients
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return phase{}, err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, bareSchema); err != nil {
		return phase{}, fmt.Errorf("bare schema: %w", err)
	}
	b := &bare{pool: pool, postbacks: recvURL + barePostbackPath, secret: []byte("bare-lifecycle-signing-secret"),
		http: &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 4 * bareClients, MaxConnsPerHost: 4 * bareClients}}}
	if b.provider, err = b.serve(http.HandlerFunc(b.providerPay)); err != nil {
		return phase{}, err
	}
	if b.self, err = b.serve(http.HandlerFunc(b.notified)); err != nil {
		return phase{}, err
	}
	defer b.close()

	var c collector
	cctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var failed atomic.Value
	count := t.countCommits(ctx)
	for g := range bareClients {
		wg.Go(func() {
			for i := 0; cctx.Err() == nil; i++ {
				wallet := int64(g+bareClients*(i%2))%bareWallets + 1
				start := time.Now()
				err := b.lifecycle(cctx, wallet)
				if err != nil && cctx.Err() == nil {
					failed.CompareAndSwap(nil, err)
				}
				c.record(time.Since(start), err == nil, "")
			}
		})
	}
	res, pr := c.window(ctx, t, warmup, measure)
	u := pr.finish(ctx)
	cancel()
	wg.Wait()
	b.inflight.Wait()
	if err, _ := failed.Load().(error); err != nil {
		return phase{}, fmt.Errorf("bare lifecycle: %w", err)
	}
	if err, _ := b.notifyFail.Load().(error); err != nil {
		return phase{}, fmt.Errorf("bare lifecycle notification: %w", err)
	}
	return phase{Name: "bare", Result: res, Usage: u, Only: []string{"postgres", "load"}, Commits: count.since(ctx), Lifecycles: int(b.reserved.Load()),
		Desc: fmt.Sprintf("bare lifecycle: 3 commits and 3 HTTP requests a withdrawal, no framework, no queue, %d in flight over %d wallets",
			bareClients, bareWallets)}, nil
}

// serve runs h on a free loopback port and returns its base URL.
func (b *bare) serve(h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	b.servers = append(b.servers, srv)
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), nil
}

func (b *bare) close() {
	for _, s := range b.servers {
		_ = s.Close()
	}
	b.http.CloseIdleConnections()
}

// lifecycle is one withdrawal: the reservation's commit, the provider
// call, then waiting for its postback to be delivered (the notification
// handler does the rest).
func (b *bare) lifecycle(ctx context.Context, wallet int64) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		var available int64
		if err := tx.QueryRow(ctx, `SELECT available FROM bare_wallets WHERE id = $1 FOR UPDATE`, wallet).Scan(&available); err != nil {
			return err
		}
		if available < bareAmount+bareFee {
			return errors.New("insufficient funds")
		}
		if _, err := tx.Exec(ctx, `UPDATE bare_wallets SET available = available - $2, reserved = reserved + $2 WHERE id = $1`,
			wallet, bareAmount+bareFee); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO bare_withdrawals (id, wallet_id, amount, fee, status) VALUES ($1, $2, $3, $4, 'PROCESSING')`,
			id, wallet, bareAmount, bareFee); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO bare_postings (withdrawal_id, account, amount) VALUES ($1, 'available', $2), ($1, 'reserved', $3)`,
			id, -(bareAmount + bareFee), bareAmount+bareFee)
		return err
	})
	if err != nil {
		return fmt.Errorf("reserve: %w", err)
	}
	b.reserved.Add(1)
	done := make(chan error, 1)
	b.waiting.Store(id, done)
	defer b.waiting.Delete(id)
	body, _ := json.Marshal(map[string]any{"external_id": id, "amount": bareAmount, "postbackUrl": b.self})
	if err := b.post(ctx, b.provider+"/pay", body, nil); err != nil {
		return fmt.Errorf("provider: %w", err)
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// post sends body and wants a 2xx.
func (b *bare) post(ctx context.Context, url string, body []byte, header http.Header) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var sink [512]byte
	for {
		if _, err := resp.Body.Read(sink[:]); err != nil {
			break
		}
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %d", url, resp.StatusCode)
	}
	return nil
}
