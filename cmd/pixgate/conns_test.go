package main

import (
	"context"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// What a test holds at once of its process's storagetest.ProcessConns, by
// what it runs. A test that runs in parallel with others reserves the sum
// of what it runs (storagetest.Parallel), and the harness counts what it
// opens (storagetest.Use): newPixgate its commands, newDevStack its stack
// and handle, startProcess each process, openSide each handle.
const (
	// commandConns: the pixgate commands a test runs in-process, one
	// after another (newPixgate).
	commandConns = storagetest.CommandPool
	// processConns: a pixgate dev, api or worker: its pool and its
	// connection listening for key changes.
	processConns = storagetest.ProcessPool + 1
	// sandboxConns: the Postgres store of pixgate dev's sandbox.
	sandboxConns = 1
	// sideConns: a test's own handle on its database (openSide).
	sideConns = storagetest.SidePool
	// devStackConns: a test on newDevStack, commands and handle included.
	devStackConns = commandConns + processConns + sandboxConns + sideConns
	// cliConns: a test that runs commands and reads its database.
	cliConns = commandConns + sideConns
)

// openSide opens the test's own handle on the database at url, closed
// when the test ends.
func openSide(t *testing.T, url string) *storage.DB {
	t.Helper()
	storagetest.Use(t, sideConns)
	db, err := storage.Open(context.Background(), storage.Config{URL: url, MaxConns: sideConns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}
