package storage

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// An outbox row asks for a task, in the same SQL transaction as the state
// change that needs it. Right after that transaction commits, its messages
// are handed to the process's task queue (EnqueueAfterCommit), so the task
// starts at once; the task's handler deletes the row in its own commit
// (the outboxDone arguments). The outbox relay is only the safety net: it
// queues rows still there after a delay (RelayOutbox), which only happens
// when the hand-off was lost (the process died between commit and
// enqueue, the queue was down) or the task has not run yet.
//
// Nothing here sends NOTIFY: a transaction that notifies takes a
// server-wide lock at commit and holds it until its commit record is
// flushed (measured: three times the cost of a plain commit), and the
// notification transactions that woke the relays were commits of their
// own, one or more per lifecycle step.

// Enqueuer hands committed outbox messages to the task queue. It must not
// block for long and may fail silently: the relay queues whatever it
// missed.
type Enqueuer func(ctx context.Context, msgs []OutboxMessage)

// EnqueueAfterCommit makes every transaction that writes outbox rows hand
// their messages to e once it has committed. Processes that run tasks'
// producers (api, worker) set it once at start; without it the relay
// queues every row, after its delay.
func (db *DB) EnqueueAfterCommit(e Enqueuer) { db.enqueuer.Store(&e) }

// afterCommit hands msgs, just committed, to the enqueuer, if any. The
// commit happened: the hand-off goes on even if ctx has ended.
func (db *DB) afterCommit(ctx context.Context, msgs []OutboxMessage) {
	if len(msgs) == 0 {
		return
	}
	if e := db.enqueuer.Load(); e != nil {
		(*e)(context.WithoutCancel(ctx), msgs)
	}
}

// sqlTx is a pgx transaction that remembers the outbox messages it wrote.
type sqlTx struct {
	pgx.Tx
	outbox []OutboxMessage
	later  pgx.Batch // statements sent with the commit (see later)
	err    error     // what sending them earlier failed with
}

// markOutbox notes on tx, when it is one of PixGate's, the outbox messages
// it wrote, so that its commit hands them to the queue.
func markOutbox(tx pgx.Tx, msgs ...OutboxMessage) {
	if st, ok := tx.(*sqlTx); ok {
		st.outbox = append(st.outbox, msgs...)
	}
}
