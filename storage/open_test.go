package storage_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A replicated Postgres is reached with a multi-host URL and
// target_session_attrs: PixGate connects to the first host that is a
// primary, passing over hosts that are down.
func TestOpenMultiHostURL(t *testing.T) {
	u, err := url.Parse(storagetest.NewDatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Host = "127.0.0.1:1," + u.Host // a host that is down comes first
	q := u.Query()
	q.Set("target_session_attrs", "read-write")
	q.Set("connect_timeout", "5")
	u.RawQuery = q.Encode()
	db, err := storage.Open(context.Background(), storage.Config{URL: u.String()})
	if err != nil {
		t.Fatalf("multi-host URL: %v", err)
	}
	defer db.Close()
	if err := db.CheckMigrated(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A database that does not exist is ErrNoDatabase, named with its server,
// and is not created unless asked.
func TestOpenDoesNotCreateUnlessAsked(t *testing.T) {
	u, _ := url.Parse(storagetest.AdminURL())
	u.Path = "/pixgate_never_created_by_open"
	_, err := storage.Open(context.Background(), storage.Config{URL: u.String()})
	if !errors.Is(err, storage.ErrNoDatabase) || !strings.Contains(err.Error(), `"pixgate_never_created_by_open"`) {
		t.Fatalf("Open of a missing database: %v", err)
	}
}
