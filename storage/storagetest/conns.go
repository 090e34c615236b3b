package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The suite's bound on Postgres connections: a test process holds at most
// ProcessConns at once, and make test runs TESTP (default 2) packages at
// once. Tests that run one at a time hold what they need of it; tests that
// run in parallel (Parallel) share it, each holding what it reserved. The
// busiest tests are the end-to-end ones: a pixgate dev stack (ProcessPool,
// its LISTEN connection outside the pool and the sandbox's own
// connection), the test's handle on its database (SidePool) and a pixgate
// command run beside it (CommandPool): 8, so two of them run at once.
// Their database is created before they open a connection and dropped
// after they closed them all, so the administrative connection is one of
// theirs. A test on NewDB holds PoolSize, a second handle (SidePool) and
// the administrative connection. Tests racing many goroutines queue for
// connections; the races they check happen inside Postgres all the same.
const (
	// PoolSize caps the pool NewDB opens.
	PoolSize = 8
	// SidePool is for a test's own handle beside the code under test.
	SidePool = 1
	// ProcessPool is PIXGATE_DATABASE_MAX_CONNS of the pixgate processes
	// the tests run (dev, api, worker); each also holds a connection
	// outside its pool, listening for key changes.
	ProcessPool = 4
	// CommandPool is PIXGATE_DATABASE_MAX_CONNS of the pixgate commands
	// the tests run, one at a time, on a migrated database.
	CommandPool = 1
	// ProcessConns bounds the connections one test process holds at once.
	ProcessConns = 16
)

// tooManyClients: Postgres refused a connection for want of a free slot
// (SQLSTATE 53300, "sorry, too many clients already"; "remaining
// connection slots are reserved" is the same condition).
func tooManyClients(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "53300"
}

// explainRefusal adds to a refused connection's error what happened and
// what the suite needs, so it does not read as a failure of the code under
// test; other errors are returned as they are.
func explainRefusal(err error) error {
	if err == nil || !tooManyClients(err) {
		return err
	}
	usage := "its connection slots are all taken"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if conn, cerr := pgx.Connect(ctx, AdminURL()); cerr == nil {
		var max string
		var used int
		if conn.QueryRow(ctx, "SELECT current_setting('max_connections'), (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')").Scan(&max, &used) == nil {
			usage = fmt.Sprintf("max_connections is %s and clients hold %d", max, used)
		}
		conn.Close(ctx)
	}
	return fmt.Errorf("the Postgres server refused a connection (too many clients: %s). This is not a failure of the code under test: "+
		"one test process holds at most %d connections and make test runs TESTP (default 2) packages at once; "+
		"free connections, raise max_connections or run make test TESTP=1 (README, Tests): %w", usage, ProcessConns, err)
}

// refusalTracer reports, once per test, a connection Postgres refused for
// want of slots: the operation that needed it fails with an error the test
// may only count, such as a race test's "accepted 20, refused 11".
type refusalTracer struct {
	report func(error) // t.Error while the test runs
	once   sync.Once
	done   atomic.Bool
}

func newRefusalTracer(t testing.TB) *refusalTracer {
	r := &refusalTracer{report: func(err error) { t.Errorf("storagetest: %v", err) }}
	t.Cleanup(func() { r.done.Store(true) })
	return r
}

func (r *refusalTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (r *refusalTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *refusalTracer) TraceConnectStart(ctx context.Context, _ pgx.TraceConnectStartData) context.Context {
	return ctx
}

func (r *refusalTracer) TraceConnectEnd(_ context.Context, data pgx.TraceConnectEndData) {
	if data.Err == nil || !tooManyClients(data.Err) || r.done.Load() {
		return
	}
	r.once.Do(func() { r.report(explainRefusal(data.Err)) })
}
