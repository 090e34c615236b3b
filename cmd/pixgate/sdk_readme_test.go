package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The SDK's README said `go get github.com/pixgate/pixgate/api/sdk`, which
// fails: the module is not published. Its Install section's commands are
// run here as a reader runs them, in a new module of their own, with this
// checkout for /path/to/pixgate, then a program using the README's import
// is built, with the module proxy off, so that nothing but the checkout can
// serve the SDK. A reader's go get takes the SDK's own dependencies from
// the proxy: they are put in the module cache first (its whole module
// graph: the SDK's build never reads one of their go.mod files, its go get
// does, and a machine whose cache lacked it failed here with the SDK fine).
func TestSDKReadmeInstallStepsWork(t *testing.T) {
	goCmd := needCommand(t, "go")
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "api", "sdk", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, install, ok := strings.Cut(readme, "\n## Install\n")
	if !ok {
		t.Fatal("api/sdk/README.md has no Install section")
	}
	install, _, _ = strings.Cut(install, "\n## ")
	_, steps, ok := strings.Cut(install, "```sh\n")
	steps, _, _ = strings.Cut(steps, "```")
	if !ok || strings.TrimSpace(steps) == "" {
		t.Fatal("the Install section has no sh block")
	}
	_, importLine, _ := strings.Cut(install, "```go\n")
	importLine, _, _ = strings.Cut(importLine, "\n")
	if !strings.HasPrefix(importLine, `import pixgate "`) {
		t.Fatalf("the Install section's go block is not the import: %q", importLine)
	}

	dir := t.TempDir()
	runTool(t, filepath.Join(root, "api", "sdk"), goEnv, goCmd, "list", "-m", "all")
	env := append(append([]string{}, goEnv...), "GOPROXY=off", "GOSUMDB=off")
	runTool(t, dir, env, goCmd, "mod", "init", "example.com/shop")
	for _, step := range strings.Split(strings.TrimSpace(steps), "\n") {
		step = strings.ReplaceAll(step, "/path/to/pixgate", root)
		runTool(t, dir, env, "sh", "-c", step)
	}
	program := "package main\n\n" + importLine + "\n\nfunc main() { println(pixgate.MustAmount(\"15.50\").String()) }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := runTool(t, dir, env, goCmd, "run", "."); strings.TrimSpace(out) != "15.50" {
		t.Fatalf("the program printed %q", out)
	}
}
