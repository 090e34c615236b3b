package storage

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A transaction that calls NOTIFY takes a server-wide lock at commit and
// holds it until its commit record is flushed, so transactions that notify
// commit one at a time (measured: three times the cost of a plain commit).
// PixGate's transactions therefore never notify. A transaction that wrote
// outbox rows is marked (sqlTx), and after it commits it pokes the
// notifier, which sends the notification from a transaction of its own:
// pokes that arrive while one is being sent coalesce into the next, and the
// notification commits asynchronously (losing one only delays the relay to
// its next poll).
type notifier struct {
	pool  *pgxpool.Pool
	pokes chan struct{}
	stop  context.CancelFunc
	done  chan struct{}
}

// notifyGap spaces notifications, so that under load one wakes the relays
// for many commits.
const notifyGap = 2 * time.Millisecond

const notifySQL = `BEGIN; SET LOCAL synchronous_commit TO off; SELECT pg_notify('` + outboxChannel + `', ''); COMMIT`

func startNotifier(pool *pgxpool.Pool) *notifier {
	ctx, stop := context.WithCancel(context.Background())
	n := &notifier{pool: pool, pokes: make(chan struct{}, 1), stop: stop, done: make(chan struct{})}
	go func() {
		defer close(n.done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-n.pokes:
				// One simple-protocol round trip; on failure the relays'
				// polling picks the rows up.
				_, _ = n.pool.Exec(ctx, notifySQL, pgx.QueryExecModeSimpleProtocol)
				// At most one notification per notifyGap: pokes meanwhile
				// ride on the next.
				select {
				case <-ctx.Done():
				case <-time.After(notifyGap):
				}
			}
		}
	}()
	return n
}

// poke asks for a notification without ever blocking the caller.
func (n *notifier) poke() {
	select {
	case n.pokes <- struct{}{}:
	default: // one is already pending
	}
}

func (n *notifier) close() {
	n.stop()
	<-n.done
}

// sqlTx is a pgx transaction that remembers whether it wrote outbox rows.
type sqlTx struct {
	pgx.Tx
	wroteOutbox bool
}

// markOutbox notes on tx, when it is one of PixGate's, that it wrote outbox
// rows, so that its commit wakes the relays.
func markOutbox(tx pgx.Tx) {
	if st, ok := tx.(*sqlTx); ok {
		st.wroteOutbox = true
	}
}
