package main

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// "address already in use" did not say which setting chose the address,
// and pixgate dev created and migrated the database before finding out.
// Each command now binds its addresses first, and the error names the
// variable, the address and the process holding it.
func TestATakenPortNamesItsSettingAndComesBeforeTheDatabase(t *testing.T) {
	cases := []struct {
		cmd     string
		setting string
	}{
		{"dev", "PIXGATE_SANDBOX_ADDR"},
		{"dev", "PIXGATE_HTTP_ADDR"},
		{"dev", "PIXGATE_WORKER_ADDR"},
		{"api", "PIXGATE_HTTP_ADDR"},
		{"api", "PIXGATE_API_METRICS_ADDR"},
		{"worker", "PIXGATE_WORKER_ADDR"},
		{"sandbox", "PIXGATE_SANDBOX_ADDR"},
	}
	for _, tc := range cases {
		t.Run(tc.cmd+" "+tc.setting, func(t *testing.T) {
			taken, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer taken.Close()
			name := storagetest.NewDatabaseName(t)
			env := map[string]string{
				"PIXGATE_DATABASE_URL":           dbURL(t, name),
				"PIXGATE_REDIS_URL":              "redis://127.0.0.1:1/0",
				"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "port-test-webhook-token-0123456789abcdef",
				"PIXGATE_DEMO_KEY_FILE":          t.TempDir() + "/demo-key.json",
			}
			for _, s := range []string{"PIXGATE_HTTP_ADDR", "PIXGATE_API_METRICS_ADDR", "PIXGATE_WORKER_ADDR", "PIXGATE_SANDBOX_ADDR"} {
				env[s] = "127.0.0.1:0"
			}
			env[tc.setting] = taken.Addr().String()
			p := &pixgate{t: t, env: env}
			code, _, errs := p.run(tc.cmd)
			holder := fmt.Sprintf("(pid %d)", os.Getpid())
			for _, want := range []string{tc.setting + "=" + taken.Addr().String(), "already in use", holder, "set " + tc.setting} {
				if !strings.Contains(errs, want) {
					t.Errorf("pixgate %s with %s taken: stderr lacks %q:\n%s", tc.cmd, tc.setting, want, errs)
				}
			}
			if code == 0 {
				t.Errorf("pixgate %s exited 0", tc.cmd)
			}
			if databaseExists(t, name) {
				t.Errorf("pixgate %s created the database before finding its address taken", tc.cmd)
			}
		})
	}
}
