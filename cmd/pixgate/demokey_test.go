package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Every pixgate dev run used to mint a demo key and leave the old ones
// active. The key is now kept and reused; when it cannot be (its file is
// gone, or the key was revoked) a new one replaces every other.
func TestDevReusesTheDemoKey(t *testing.T) {
	ctx := context.Background()
	db := storagetest.NewDB(t)
	file := filepath.Join(t.TempDir(), "demo-key.json")
	c := &cli{cfg: config{DemoKeyFile: file}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	first, err := c.ensureDemo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.ensureDemo(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if again.creds != first.creds || again.created {
		t.Fatalf("second run: key %s, want the first run's %s", again.creds.PublicID, first.creds.PublicID)
	}
	activeKeys := func() int {
		keys, err := db.ListKeys(ctx, first.integrator.ID)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, k := range keys {
			if k.RevokedAt == nil {
				n++
			}
		}
		return n
	}
	if n := activeKeys(); n != 1 {
		t.Fatalf("%d active demo keys, want 1", n)
	}

	for _, lose := range []func(k demoKey){
		func(demoKey) { _ = os.Remove(file) },
		func(k demoKey) { _ = db.RevokeKey(ctx, k.PublicID) },
	} {
		before, _ := c.readDemoKey()
		lose(before)
		next, err := c.ensureDemo(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if next.creds.PublicID == before.PublicID {
			t.Fatal("a key that could not be reused was reused")
		}
		if _, _, err := db.AuthenticateKey(ctx, next.creds.PublicID, next.creds.Secret); err != nil {
			t.Fatalf("the new demo key does not authenticate: %v", err)
		}
		if n := activeKeys(); n != 1 {
			t.Fatalf("%d active demo keys after a new one, want 1", n)
		}
		if k, err := c.readDemoKey(); err != nil || k.PublicID != next.creds.PublicID {
			t.Fatalf("the new key was not kept: %+v %v", k, err)
		}
	}
}
