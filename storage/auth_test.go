package storage_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// rowCounter records how many rows each query answered.
type rowCounter struct {
	mu   sync.Mutex
	rows []int64
}

func (r *rowCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (r *rowCounter) TraceQueryEnd(_ context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, d.CommandTag.RowsAffected())
}

func (r *rowCounter) take() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.rows
	r.rows = nil
	return got
}

// An unknown key id and a wrong secret do the same work: one query that
// answers one row of the same shape, then one constant-time comparison.
// Postgres answering no row for an unknown id made a 401 about 10% faster,
// which told which key ids exist.
func TestUnknownKeyCostsWhatAWrongSecretCosts(t *testing.T) {
	ctx := context.Background()
	counter := &rowCounter{}
	db, err := storage.Open(ctx, storage.Config{URL: storagetest.NewDatabaseURL(t), Tracer: counter, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	in := newIntegrator(t, db)
	_, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		t.Fatal(err)
	}
	counter.take()
	work := map[string][]int64{}
	for name, pair := range map[string][2]string{
		"unknown key":  {"pk_nosuchkey0000000", creds.Secret},
		"wrong secret": {creds.PublicID, creds.Secret[:len(creds.Secret)-1] + "x"},
	} {
		if _, _, err := db.AuthenticateKey(ctx, pair[0], pair[1]); !errors.Is(err, storage.ErrInvalidCredentials) {
			t.Fatalf("%s: %v", name, err)
		}
		work[name] = counter.take()
	}
	if len(work["unknown key"]) != 1 || len(work["wrong secret"]) != 1 || work["unknown key"][0] != 1 || work["wrong secret"][0] != 1 {
		t.Fatalf("rows answered per query: unknown key %v, wrong secret %v; want one query of one row each", work["unknown key"], work["wrong secret"])
	}
}

// The two failure paths, side by side: their medians should be within noise
// of each other (go test -bench AuthenticateKey -count 10 ./storage/).
func BenchmarkAuthenticateKey(b *testing.B) {
	ctx := context.Background()
	db := storagetest.NewDB(b)
	in := newIntegrator(b, db)
	_, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		b.Fatal(err)
	}
	for name, pair := range map[string][2]string{
		"unknown_key":  {"pk_nosuchkey0000000", creds.Secret},
		"wrong_secret": {creds.PublicID, creds.Secret + "x"},
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, _, _ = db.AuthenticateKey(ctx, pair[0], pair[1])
			}
		})
	}
}
