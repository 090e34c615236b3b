package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
)

// A server that does not answer is ErrUnreachable, named by host and port:
// the URL is never quoted, since it may hold a password in any of the
// forms Postgres reads one.
func TestOpenUnreachableNamesTheServerNotThePassword(t *testing.T) {
	for _, url := range []string{
		"postgres://ana:s3cr3t-pw@127.0.0.1:1/pixgate?sslmode=disable",
		"postgres://ana@127.0.0.1:1/pixgate?password=s3cr3t-pw",
		"host=127.0.0.1 port=1 user=ana password=s3cr3t-pw dbname=pixgate",
	} {
		for _, create := range []bool{false, true} {
			_, err := storage.Open(context.Background(), storage.Config{URL: url, CreateIfMissing: create})
			if !errors.Is(err, storage.ErrUnreachable) || !strings.Contains(err.Error(), "127.0.0.1:1") {
				t.Errorf("Open (create %v) of a server that is down: %v", create, err)
			}
			if err != nil && strings.Contains(err.Error(), "s3cr3t-pw") {
				t.Errorf("the error shows the password: %v", err)
			}
		}
	}
}
