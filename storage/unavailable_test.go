package storage_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage"
)

func TestUnavailableTellsAnOutageFromAFault(t *testing.T) {
	// Nothing listens on a port just released.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := storage.Open(context.Background(), storage.Config{URL: "postgres://postgres@" + addr + "/pixgate?sslmode=disable&connect_timeout=2"})
	if refused == nil {
		t.Fatal("opened a database where nothing listens")
	}
	cases := []struct {
		err  error
		want bool
	}{
		{refused, true},
		{fmt.Errorf("storage: active key: %w", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}), true},
		{&pgconn.PgError{Code: "57P03", Message: "the database system is shutting down"}, true},
		{&pgconn.PgError{Code: "08006"}, true},
		{&pgconn.PgError{Code: "23505", Message: "duplicate key value"}, false},
		{&pgconn.PgError{Code: "40001"}, false},
		{storage.ErrNotFound, false},
		{errors.New("storage: something else"), false},
		{fmt.Errorf("storage: create refund: %w", context.DeadlineExceeded), true}, // no connection came free in time
		{context.Canceled, false},
	}
	for _, c := range cases {
		if got := storage.Unavailable(c.err); got != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
