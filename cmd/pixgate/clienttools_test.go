package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tools the generated-client and SDK tests run: the go command for the
// nested modules, and the npm packages of docs/clients/package.json, which
// `make clienttools` installs into bin/clients (PIXGATE_TEST_CLIENT_TOOLS
// names another directory). A test whose tool is missing is skipped with
// the reason; .ci/run installs them, so CI runs every one.

// repoRoot is the repository's top directory (tests run in cmd/pixgate).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// clientTools is the directory whose node_modules holds the npm tools.
func clientTools(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("PIXGATE_TEST_CLIENT_TOOLS"); dir != "" {
		return dir
	}
	return filepath.Join(repoRoot(t), "bin", "clients")
}

// npmTool is the path of an installed npm package's executable, or a skip.
func npmTool(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(clientTools(t), "node_modules", ".bin", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s is not installed in %s: run `make clienttools` (it needs npm)", name, clientTools(t))
	}
	needCommand(t, "node")
	return path
}

// needCommand skips the test when a program is not on PATH.
func needCommand(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (not on PATH)", name)
	}
	return path
}

// runTool runs a program in dir with extra environment variables, failing
// the test with its output when it fails. Each run is bounded.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", filepath.Base(name), strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// goEnv is what the go command needs to build a nested module on its own,
// whatever workspace or flags the outer test runs under.
var goEnv = []string{"GOWORK=off", "GOFLAGS="}

// copyTree copies the regular files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

// flowIntegrator creates an integrator for one client flow: cash-in 1.5 %,
// cash-out R$ 0.50, R$ 197,143.76 available (a balance a float32 would
// misread), and returns the environment the flows read.
func (s *devStack) flowIntegrator(name string) []string {
	s.t.Helper()
	var in struct {
		ID    int64
		Token string `json:"token"`
	}
	s.pg.json(&in, "integrator", "create", "--name", name, "--email", strings.ToLower(strings.ReplaceAll(name, " ", "-"))+"@clients.example",
		"--cashin-fee", "percent:1.5", "--cashout-fee", "fixed:0.50")
	s.pg.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(in.ID), "--amount", "197143.76", "--reason", "client flow")
	return []string{"PIXGATE_URL=" + s.api, "PIXGATE_SANDBOX_URL=" + s.sandbox, "PIXGATE_KEY=" + in.Token}
}

// pythonWith is a python3 that imports every module: the one on PATH, else
// the system's; the test is skipped when neither does.
func pythonWith(t *testing.T, modules ...string) string {
	t.Helper()
	var candidates []string
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	candidates = append(candidates, "/usr/bin/python3")
	for _, p := range candidates {
		if _, err := runQuiet(p, "-c", "import "+strings.Join(modules, ", ")); err == nil {
			return p
		}
	}
	t.Skipf("no python3 imports %s, which the generated Python client needs (make clienttools installs them in CI)", strings.Join(modules, ", "))
	return ""
}

// runQuiet runs a short check and returns its output.
func runQuiet(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}
