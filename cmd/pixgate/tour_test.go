package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// The README's tour works as written, twice in a row against one pixgate
// dev: it is run by bash, with only the addresses moved to the test's ports
// and bin/pixgate replaced by this test binary acting as pixgate.
func TestREADMETourRunsTwice(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	tourRuns(t, 2)
}

// With PIXGATE_PROVIDER_KIND=efi, pixgate dev's sandbox speaks the BCB API
// Pix as Efí serves it, over mutual TLS, and PixGate its efi connector: the
// same tour passes unchanged, v1 and v2.
func TestREADMETourWithEfi(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	tls := freePorts(t, 1)[0]
	s := tourRuns(t, 1, "PIXGATE_PROVIDER_KIND", "efi", "PIXGATE_SANDBOX_TLS_ADDR", tls, "PIXGATE_SANDBOX_TLS_DIR", t.TempDir())
	// The money went through the efi contract: every charge's pix_id is
	// its txid, PixGate's id without hyphens, and every withdrawal's its
	// idEnvio.
	for _, table := range []string{"charges", "withdrawals", "refunds"} {
		var n, viaEfi int
		err := s.db.Pool().QueryRow(context.Background(),
			`SELECT count(*), count(*) FILTER (WHERE pix_id = replace(id::text, '-', '')) FROM `+table).Scan(&n, &viaEfi)
		if err != nil || n == 0 || viaEfi != n {
			t.Fatalf("%s: %d of %d through the efi contract (%v)", table, viaEfi, n, err)
		}
	}
}

// With PIXGATE_PROVIDER_KIND=woovi, the sandbox speaks Woovi's API and
// signs its webhooks, and PixGate its woovi connector, checking them: the
// same tour passes unchanged.
func TestREADMETourWithWoovi(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := tourRuns(t, 1, "PIXGATE_PROVIDER_KIND", "woovi", "PIXGATE_SANDBOX_TLS_DIR", t.TempDir())
	// Through the woovi contract: every pix_id is the correlationID, which
	// is PixGate's id (a charge's without hyphens, 32 characters, as every
	// other contract's pix_id of a charge).
	for table, correlationID := range map[string]string{"charges": "replace(id::text, '-', '')", "withdrawals": "id::text", "refunds": "id::text"} {
		var n, viaWoovi int
		err := s.db.Pool().QueryRow(context.Background(),
			`SELECT count(*), count(*) FILTER (WHERE pix_id = `+correlationID+`) FROM `+table).Scan(&n, &viaWoovi)
		if err != nil || n == 0 || viaWoovi != n {
			t.Fatalf("%s: %d of %d through the woovi contract (%v)", table, viaWoovi, n, err)
		}
	}
}

// tourRuns runs the README's tour runs times against one pixgate dev with
// env added to its environment.
func tourRuns(t *testing.T, runs int, env ...string) *devStack {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the tour needs %s", tool)
		}
	}
	script := readmeTour(t)
	s := newDevStack(t, append([]string{"PIXGATE_DEMO_KEY_FILE", filepath.Join(t.TempDir(), "demo-key.json")}, env...)...)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script = strings.NewReplacer(
		"http://127.0.0.1:8080", s.api,
		"http://127.0.0.1:9090", s.sandbox,
		"bin/pixgate", "env PIXGATE_TEST_MAIN=1 "+self,
	).Replace(script)
	for run := 1; run <= runs; run++ {
		out := runTour(t, s, script)
		for _, want := range []string{`"status": "PAID"`, `"status": "COMPLETED"`, `"end_to_end_id": "E`, `"balance": `,
			`"transactionType": "REFUND"`} {
			if !strings.Contains(out, want) {
				t.Fatalf("run %d: the tour's output lacks %s:\n%s", run, want, out)
			}
		}
	}
	s.auditClean()
	return s
}

// pixgate demo takes the same tour, twice in a row, and prints each
// request and answer.
func TestDemoRunsTwice(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_DEMO_KEY_FILE", filepath.Join(t.TempDir(), "demo-key.json"))
	for run := 1; run <= 2; run++ {
		code, out, errs := s.pg.run("demo", "--api", s.api, "--sandbox", s.sandbox)
		if code != 0 {
			t.Fatalf("run %d: pixgate demo: exit %d\n%s\n%s", run, code, out, errs)
		}
		for _, want := range []string{"==> POST " + s.api + "/api/v1/charges", "<== 201 Created", `"status": "PAID"`,
			`"status": "COMPLETED"`, `"token_type": "Bearer"`, `"balance": `, `"transactionType": "REFUND"`} {
			if !strings.Contains(out, want) {
				t.Fatalf("run %d: pixgate demo's output lacks %q:\n%s", run, want, out)
			}
		}
	}
	s.auditClean()
}

func readmeTour(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- tour:begin -->\n```sh\n")
	tour, _, ok2 := strings.Cut(rest, "```\n<!-- tour:end -->")
	if !ok1 || !ok2 {
		t.Fatal("README.md lacks the tour between <!-- tour:begin --> and <!-- tour:end -->")
	}
	return tour
}

func runTour(t *testing.T, s *devStack, script string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for k, v := range s.pg.env {
		cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%s", k, v))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("the README's tour failed: %v\n%s", err, out.String())
	}
	return out.String()
}
