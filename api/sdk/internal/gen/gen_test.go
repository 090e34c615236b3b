package gen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// generator is oapi-codegen at the version client.gen.go is made with: the
// one docs/clients/go uses.
const generator = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"

// The committed client is what the pinned generator makes, with
// oapi-codegen.yaml, from docs/openapi.yaml as it is now: a change to the
// document not followed by `go generate ./internal/gen` fails here. The
// generator runs (go run, from the module cache or the module proxy); -short
// skips it.
func TestGeneratedClientIsCurrent(t *testing.T) {
	src, err := os.ReadFile("gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "//go:generate go run "+generator+" ") {
		t.Fatalf("gen.go's go:generate does not run %s", generator)
	}
	doc, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "docs", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(doc); err != nil {
		t.Skipf("the SDK is not inside PixGate's tree: %v", err)
	}
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	config, err := os.ReadFile("oapi-codegen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "oapi-codegen.yaml"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, "run", generator, "-config", "oapi-codegen.yaml", doc)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	want, err := os.ReadFile(filepath.Join(dir, "client.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		n := 0
		for n < min(len(gotLines), len(wantLines)) && gotLines[n] == wantLines[n] {
			n++
		}
		t.Fatalf("client.gen.go is not what %s makes from docs/openapi.yaml (first difference at line %d): run `go generate ./internal/gen` in api/sdk", generator, n+1)
	}
}
