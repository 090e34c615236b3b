package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// With Postgres unreachable, every command said "cannot reach Postgres at"
// and the URL (with the password of a key=value or ?password= URL), naming
// neither the setting nor what to do. It now names the address tried,
// PIXGATE_DATABASE_URL and what to do, and never a password.
func TestPostgresUnreachableNamesTheSettingAndWhatToDo(t *testing.T) {
	r := storagetest.NewRedis(t)
	p := &pixgate{t: t, env: map[string]string{
		"PIXGATE_REDIS_URL":              fmt.Sprintf("redis://%s/%d", r.Addr, r.DB),
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "unreachable-test-webhook-token-0123456789",
		"PIXGATE_DEMO_KEY_FILE":          filepath.Join(t.TempDir(), "demo-key.json"),
		"PIXGATE_SANDBOX_TLS_DIR":        t.TempDir(),
	}}
	movePorts(p)
	for _, url := range []string{
		"postgres://ana:s3cr3t-pw@127.0.0.1:1/pixgate?sslmode=disable",
		"postgres://ana@127.0.0.1:1/pixgate?password=s3cr3t-pw",
		"host=127.0.0.1 port=1 user=ana password=s3cr3t-pw dbname=pixgate",
	} {
		p.env["PIXGATE_DATABASE_URL"] = url
		for _, args := range [][]string{{"dev"}, {"api"}, {"migrate"}, {"sandbox"}, {"audit"}, {"integrator", "list"}} {
			code, _, errs := p.run(args...)
			for _, want := range []string{"cannot reach Postgres at 127.0.0.1:1", "PIXGATE_DATABASE_URL", "start Postgres"} {
				if code == 0 || !strings.Contains(errs, want) {
					t.Errorf("pixgate %v with %s: exit %d, stderr lacks %q: %s", args, url, code, want, errs)
				}
			}
			if strings.Contains(errs, "s3cr3t-pw") {
				t.Errorf("pixgate %v shows the password: %s", args, errs)
			}
		}
	}
}

// A missing Redis was found only after pixgate dev (api, worker) had
// created and migrated the database. Redis is now reached first, and its
// error names PIXGATE_REDIS_URL and what to do, never its password.
func TestRedisUnreachableStopsBeforeTheDatabaseIsCreated(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	p := newPixgate(t)
	p.env["PIXGATE_DATABASE_URL"] = dbURL(t, name)
	p.env["PIXGATE_REDIS_URL"] = "redis://:s3cr3t-pw@127.0.0.1:1/0"
	p.env["PIXGATE_PROVIDER_WEBHOOK_TOKEN"] = "unreachable-test-webhook-token-0123456789"
	movePorts(p)
	for _, cmd := range []string{"dev", "api", "worker"} {
		code, _, errs := p.run(cmd)
		for _, want := range []string{"cannot reach Redis at 127.0.0.1:1 (PIXGATE_REDIS_URL)", "start Redis"} {
			if code == 0 || !strings.Contains(errs, want) {
				t.Errorf("pixgate %s: exit %d, stderr lacks %q: %s", cmd, code, want, errs)
			}
		}
		if strings.Contains(errs, "s3cr3t-pw") {
			t.Errorf("pixgate %s shows the password: %s", cmd, errs)
		}
		if databaseExists(t, name) {
			t.Fatalf("pixgate %s created database %s before it found Redis down", cmd, name)
		}
	}
}

// movePorts gives every listener of p a free port, so that a command
// fails on what a test means and not on a taken port.
func movePorts(p *pixgate) {
	ports := freePorts(p.t, 5)
	for i, name := range []string{settingHTTPAddr, settingWorkerAddr, settingSandboxAddr, settingAPIMetricsAddr, settingSandboxTLSAddr} {
		p.env[name] = ports[i]
	}
}
