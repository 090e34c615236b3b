package storage

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// StatementCounter is a pgx tracer that counts the SQL statements a pool
// sends: every Query, QueryRow and Exec (BEGIN and COMMIT included, which
// pgx sends as statements), every statement queued in a batch, and every
// COPY. Counting is one atomic add per call (a batch adds its length at
// once), so it stays on in production; DB.Statements reads the pool's.
type StatementCounter struct{ n atomic.Uint64 }

// Count is how many statements were sent so far.
func (c *StatementCounter) Count() uint64 { return c.n.Load() }

// TraceQueryStart counts one statement.
func (c *StatementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

// TraceQueryEnd does nothing.
func (c *StatementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart counts every statement of the batch.
func (c *StatementCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if data.Batch != nil {
		c.n.Add(uint64(data.Batch.Len()))
	}
	return ctx
}

// TraceBatchQuery does nothing: the batch was counted at its start.
func (c *StatementCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

// TraceBatchEnd does nothing.
func (c *StatementCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// TraceCopyFromStart counts one statement.
func (c *StatementCounter) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceCopyFromStartData) context.Context {
	c.n.Add(1)
	return ctx
}

// TraceCopyFromEnd does nothing.
func (c *StatementCounter) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}

// poolTracer is the tracer of every pool Open makes: the acquire deadline
// and the statement count.
type poolTracer struct {
	*acquireDeadline
	*StatementCounter
}

// Statements is how many SQL statements the pool has sent since Open
// (see StatementCounter).
func (db *DB) Statements() uint64 { return db.statements.Count() }
