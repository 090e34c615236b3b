package main

import (
	"os"
	"path"
	"strings"
	"testing"
)

// The image is built with the repository root as its context, and the only
// ignore file was deploy/Dockerfile.dockerignore, which the legacy builder
// (docker without buildx) does not read: .git and bin/ went into the
// context. The ignore file is now at the context's root, where every builder
// reads it, and leaves in what the build needs.
func TestTheImageBuildContextLeavesOutGitAndBin(t *testing.T) {
	b, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatalf("no .dockerignore at the build context's root: %v", err)
	}
	if _, err := os.Stat("../../deploy/Dockerfile.dockerignore"); err == nil {
		t.Fatal("deploy/Dockerfile.dockerignore would take precedence under BuildKit: keep one ignore file, at the root")
	}
	var patterns []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, strings.TrimSuffix(line, "/"))
		}
	}
	// excluded mirrors Docker's rule for these plain patterns: a pattern
	// matches a path or one of its parent directories, from the root.
	excluded := func(p string) bool {
		for _, pat := range patterns {
			for dir := p; dir != "."; dir = path.Dir(dir) {
				if ok, _ := path.Match(pat, dir); ok {
					return true
				}
			}
		}
		return false
	}
	for _, out := range []string{".git/config", "bin/pixgate", "bin/clients/node_modules/x.js", "pixgate", "tmp/x", ".cache/go/x"} {
		if !excluded(out) {
			t.Errorf("%s would be sent in the build context", out)
		}
	}
	for _, in := range []string{"go.mod", "go.sum", "cmd/pixgate/main.go", "api/app.go", "docs/openapi.go", "docs/openapi.yaml",
		"storage/migrations/00001_init.sql", "providerclient/sandbox/sandbox.go"} {
		if excluded(in) {
			t.Errorf("%s, which the build needs, would be left out of the context", in)
		}
	}
}
