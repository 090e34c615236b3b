package storage_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Open's first check dials the pool's first connection. A dial is not a
// wait for a busy pool: a slow one (a loaded machine, a far database) must
// not fail Open because the acquire timeout is short.
func TestOpenIsNotBoundByTheAcquireTimeout(t *testing.T) {
	dbURL := storagetest.NewDatabaseURL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = slowDialProxy(t, u.Host, 300*time.Millisecond)
	db, err := storage.Open(context.Background(), storage.Config{
		URL: u.String(), MaxConns: 1, AcquireTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open through a dial of 300 ms with an acquire timeout of 50 ms: %v", err)
	}
	db.Close()
}

// slowDialProxy forwards every connection to target after delay, and
// returns its own address.
func slowDialProxy(t *testing.T, target string, delay time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				time.Sleep(delay)
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c) }()
				_, _ = io.Copy(c, up)
			}()
		}
	}()
	return ln.Addr().String()
}
