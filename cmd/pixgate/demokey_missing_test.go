package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

// With pixgate dev running on another database than pixgate demo's
// PIXGATE_DATABASE_URL, demo said "start pixgate dev first" although dev
// was running. It now says the key is per database and names those it has.
func TestDemoKeyMissingForThisDatabaseNamesTheOthers(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	demo := func(dbURL string) (int, string) {
		p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": dbURL}}
		code, _, errs := p.run("demo", "--print-token")
		return code, errs
	}
	const devDB, demoDB = "postgres://postgres@127.0.0.1:5432/pixgate_dev_here?sslmode=disable", "postgres://postgres:pw@127.0.0.1:5432/pixgate?sslmode=disable"
	if code, errs := demo(demoDB); code == 0 || !strings.Contains(errs, "no demo key yet: start pixgate dev (make run) first") {
		t.Fatalf("no key at all: exit %d, %s", code, errs)
	}
	dev := &cli{cfg: config{DatabaseURL: devDB, HTTPAddr: "127.0.0.1:8080"}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := dev.writeDemoKey(demoKey{IntegratorID: 1, PublicID: "pk", Secret: "sk_secret"}); err != nil {
		t.Fatal(err)
	}
	code, errs := demo(demoDB)
	for _, want := range []string{"no demo key for database pixgate on 127.0.0.1:5432 (PIXGATE_DATABASE_URL)",
		"the pixgate dev serving 127.0.0.1:8080 kept its key for: pixgate_dev_here on 127.0.0.1:5432", "with the PIXGATE_DATABASE_URL pixgate dev runs with"} {
		if code == 0 || !strings.Contains(errs, want) {
			t.Errorf("exit %d, stderr lacks %q: %s", code, want, errs)
		}
	}
	if strings.Contains(errs, "sk_secret") || strings.Contains(errs, ":pw@") {
		t.Fatalf("the message shows a secret: %s", errs)
	}
	if code, out, _ := (&pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": devDB}}).run("demo", "--print-token"); code != 0 || out != "pk.sk_secret\n" {
		t.Fatalf("pixgate demo on dev's database: exit %d, %q", code, out)
	}
}
