package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// EnsureDatabase creates the database named in dbURL when it does not exist,
// connecting to the server's "postgres" database to do so. A database that
// already exists is left alone.
func EnsureDatabase(ctx context.Context, dbURL string) error {
	cc, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return fmt.Errorf("storage: database URL: %w", err)
	}
	name := cc.Database
	if name == "" || name == "postgres" {
		return nil
	}
	conn, err := pgx.ConnectConfig(ctx, cc)
	if err == nil {
		return conn.Close(ctx)
	}
	if !isMissingDatabase(err) {
		return connectError(ctx, &cc.Config, err)
	}
	admin := cc.Copy()
	admin.Database = "postgres"
	conn, err = pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return fmt.Errorf("create database %q: %w", name, connectError(ctx, &admin.Config, err))
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	// Another process starting at the same time created it first. Postgres
	// reports that as duplicate_database, or, when both inserts race in the
	// catalog, as a unique violation on pg_database's name index.
	if errors.As(err, &pgErr) && (pgErr.Code == "42P04" || pgErr.Code == "23505") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("storage: create database %q: %w", name, err)
	}
	return nil
}

// isMissingDatabase says whether err is Postgres refusing a connection to a
// database that does not exist.
func isMissingDatabase(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "3D000" // invalid_catalog_name
}

// hostPort names a server for messages.
func hostPort(host string, port uint16) string {
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// ErrUnreachable is Postgres not answering at the address tried: it is
// down, or the URL names the wrong host or port.
var ErrUnreachable = errors.New("cannot reach Postgres")

// connectError says why a connection to cc's server failed: the server's
// refusal in its own words (a wrong password, a role that does not
// exist), else ErrUnreachable with the cause. It names the server by host
// and port, never by its URL, which may hold a password (in its user
// part, its query or a key=value form). pgx's error stays wrapped, for
// Unavailable and errors.As.
func connectError(ctx context.Context, cc *pgconn.Config, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("storage: connect to Postgres: %w", ctx.Err())
	}
	where := servers(cc)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return &connectFailure{msg: fmt.Sprintf("storage: Postgres at %s refused user %q: %s", where, cc.User, pgErr), err: err}
	}
	return &connectFailure{msg: fmt.Sprintf("storage: %s at %s: %s", ErrUnreachable, where, connectCause(err)),
		err: err, unreachable: true}
}

// connectFailure is connectError's error: its own one-line message, over
// pgx's, which repeats each address tried on a line of its own.
type connectFailure struct {
	msg         string
	err         error
	unreachable bool
}

func (e *connectFailure) Error() string { return e.msg }

func (e *connectFailure) Unwrap() []error {
	if e.unreachable {
		return []error{ErrUnreachable, e.err}
	}
	return []error{e.err}
}

// servers names every server a connection tries, as host:port, in order.
func servers(cc *pgconn.Config) string {
	seen := map[string]bool{}
	var out []string
	add := func(host string, port uint16) {
		if a := hostPort(host, port); !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	add(cc.Host, cc.Port)
	for _, f := range cc.Fallbacks {
		add(f.Host, f.Port)
	}
	return strings.Join(out, ", ")
}

// connectCause is why the server did not answer, in one line: pgx repeats
// the address before each attempt's error, on a line of its own.
func connectCause(err error) string {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return dns.Error()
	case errors.As(err, &op) && op.Err != nil:
		return op.Err.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer in time"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
