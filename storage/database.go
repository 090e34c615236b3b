package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"

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
		return fmt.Errorf("storage: cannot reach Postgres at %s: %w", redactURL(dbURL), err)
	}
	admin := cc.Copy()
	admin.Database = "postgres"
	conn, err = pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return fmt.Errorf("storage: connect to create database %q: %w", name, err)
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

// redactURL hides the password of a connection URL before it is printed.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
