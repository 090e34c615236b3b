package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

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

// receiver is the integrators' postback endpoint: it notes when each
// resource's first postback arrived (by its id, and by its external_id
// when it has one) and wakes whoever waits for it.
type receiver struct {
	mu      sync.Mutex
	first   map[string]time.Time // resource id or external_id → first arrival
	waiters map[string]chan struct{}
	total   int // deliveries
	ids     int // resources
	srv     *http.Server
}

func startReceiver(addr string) (*receiver, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	r := &receiver{first: map[string]time.Time{}, waiters: map[string]chan struct{}{}}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.serve), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	at := time.Now()
	var body struct {
		RequestBody struct {
			ID         string `json:"id"`
			ExternalID string `json:"external_id"`
		} `json:"requestBody"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil || body.RequestBody.ID == "" {
		http.Error(w, "no id", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	if req.URL.Path == barePostbackPath || req.URL.Path == archPostbackPath {
		// The bare and arch lifecycles': waited for by their own programs.
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	r.total++
	for _, key := range []string{body.RequestBody.ID, "ext:" + body.RequestBody.ExternalID} {
		if key == "ext:" {
			continue
		}
		if _, seen := r.first[key]; !seen {
			if key == body.RequestBody.ID {
				r.ids++
			}
			r.first[key] = at
			if ch, ok := r.waiters[key]; ok {
				close(ch)
				delete(r.waiters, key)
			}
		}
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// arrival is when the first postback about id arrived.
func (r *receiver) arrival(id string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	at, ok := r.first[id]
	return at, ok
}

// arrivalExt is when the first postback about the resource with the
// external id ext arrived.
func (r *receiver) arrivalExt(ext string) (time.Time, bool) { return r.arrival("ext:" + ext) }

// wait is closed when the first postback about id has arrived.
func (r *receiver) wait(id string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	if _, seen := r.first[id]; seen {
		close(ch)
		return ch
	}
	if old, ok := r.waiters[id]; ok {
		return old
	}
	r.waiters[id] = ch
	return ch
}

// counts: resources whose postback arrived, and deliveries in all.
func (r *receiver) counts() (resources, deliveries int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ids, r.total
}

func (r *receiver) close() { _ = r.srv.Close() }
