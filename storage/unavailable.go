package storage

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err means Postgres could not be reached or
// went away (a restart, a failover, a connection cut), or that no pooled
// connection came free in time (the acquire deadline: every one busy),
// rather than that a statement or the data was wrong: the same request may
// succeed a moment later, so callers answer "unavailable, retry" instead
// of reporting a fault. A deadline is one: whether it ran out waiting for
// a connection or during a statement, a retry (a create with the same
// external_id) is the answer, as after a connection cut.
func Unavailable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P01-57P03: the server is
		// shutting down, crashed, or not accepting connections yet.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	// The connection broke before the statement was sent: nothing ran.
	return pgconn.SafeToRetry(err)
}

// TimedOut reports whether Postgres gave up on err's statement under one of
// Config.Timeouts: a lock not granted within lock_timeout (55P03
// lock_not_available), a statement cut by statement_timeout (57014
// query_canceled), a session ended for idling in a transaction (25P03).
// The transaction was rolled back, nothing of it kept: callers answer
// "busy, retry" as for Unavailable, never a fault.
func TimedOut(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "55P03", "57014", "25P03":
		return true
	}
	return false
}
