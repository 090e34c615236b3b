package storage

import (
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err means Postgres could not be reached or
// went away (a restart, a failover, a connection cut), rather than that a
// statement or the data was wrong: the same request may succeed once the
// database is back, so callers answer "unavailable, retry" instead of
// reporting a fault.
func Unavailable(err error) bool {
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
