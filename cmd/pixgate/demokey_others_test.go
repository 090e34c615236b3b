package main

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

// On a shared machine the cache directory holds the demo keys of many
// databases, other users' pixgate devs and old runs included, and the
// message for a missing key listed them all. It now names only the
// database of the pixgate dev serving the address pixgate demo is pointed
// at, and no other.
func TestDemoKeyMissingNamesOnlyTheDevDemoIsPointedAt(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	keep := func(db, httpAddr string) {
		t.Helper()
		dev := &cli{cfg: config{DatabaseURL: "postgres://postgres@127.0.0.1:5432/" + db + "?sslmode=disable", HTTPAddr: httpAddr},
			log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		if err := dev.writeDemoKey(demoKey{IntegratorID: 1, PublicID: "pk_" + db, Secret: "sk_" + db}); err != nil {
			t.Fatal(err)
		}
	}
	keep("mine_on_9180", "127.0.0.1:9180")
	keep("someone_elses", "127.0.0.1:8080")
	keep("an_old_run", "127.0.0.1:18080")
	keep("listening_everywhere", "0.0.0.0:9280")

	demo := func(args ...string) string {
		t.Helper()
		p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/pixgate?sslmode=disable",
			"PIXGATE_HTTP_ADDR": "127.0.0.1:9180"}}
		code, _, errs := p.run(append([]string{"demo", "--print-token"}, args...)...)
		if code == 0 {
			t.Fatalf("pixgate demo %v found a key for database pixgate", args)
		}
		return errs
	}
	errs := demo()
	if !strings.Contains(errs, "the pixgate dev serving 127.0.0.1:9180 kept its key for: mine_on_9180 on 127.0.0.1:5432.") {
		t.Errorf("the dev on PIXGATE_HTTP_ADDR is not named: %s", errs)
	}
	for _, other := range []string{"someone_elses", "an_old_run", "listening_everywhere", "sk_"} {
		if strings.Contains(errs, other) {
			t.Errorf("the message names %s, which is no concern of this demo: %s", other, errs)
		}
	}
	if errs := demo("--api", "http://localhost:9280"); !strings.Contains(errs, "kept its key for: listening_everywhere on 127.0.0.1:5432.") ||
		strings.Contains(errs, "mine_on_9180") {
		t.Errorf("--api names the dev serving it: %s", errs)
	}
	errs = demo("--api", "http://127.0.0.1:9999")
	if !strings.Contains(errs, "no demo key for database pixgate on 127.0.0.1:5432 (PIXGATE_DATABASE_URL)") {
		t.Errorf("no dev there: %s", errs)
	}
	for _, other := range []string{"mine_on_9180", "someone_elses", "an_old_run", "listening_everywhere"} {
		if strings.Contains(errs, other) {
			t.Errorf("no dev there: the message names %s: %s", other, errs)
		}
	}
}
