package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// make test left a demo-key-*.json (and its webhook token) in the user's
// cache directory for every pixgate dev it ran: secrets nobody asked for.
// The harness keeps them in the test's temporary directory.
func TestTheSuiteWritesNothingToTheUserCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux and the BSDs
	t.Setenv("HOME", cache)           // on macOS, $HOME/Library/Caches
	s := newDevStack(t)
	s.stop()
	var left []string
	_ = filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Fatalf("a test's pixgate dev wrote into the user cache directory: %v", left)
	}
}

// Every PIXGATE_TEST_* variable the suite or its tools read is in the
// README's table of the variables the tests read: PIXGATE_TEST_CLIENT_TOOLS
// was read by the generated-client tests and named nowhere a newcomer looks.
func TestREADMENamesEveryTestVariable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(readme), "The variables the tests read:\n")
	table, _, _ = strings.Cut(table, "\n## ")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(PIXGATE_TEST_[A-Z0-9_]+)` \\|").FindAllStringSubmatch(table, -1) {
		documented[m[1]] = true
	}
	// A variable is read where its name is given to Getenv, LookupEnv or
	// envOr, or named by a constant ending in Env.
	read := regexp.MustCompile(`(?:Getenv|LookupEnv|envOr)\("(PIXGATE_TEST_[A-Z0-9_]+)"|Env\s*=\s*"(PIXGATE_TEST_[A-Z0-9_]+)"`)
	found := map[string]string{}
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bin" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(b, []byte("PIXGATE_TEST_")) { // the regexp alone takes seconds under -race
			return err
		}
		for _, m := range read.FindAllStringSubmatch(string(b), -1) {
			found[m[1]+m[2]] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 5 {
		t.Fatalf("found only %v read in the tree", found)
	}
	for name, path := range found {
		if !documented[name] {
			t.Errorf("%s (read in %s) is not in the README's table of the variables the tests read", name, path)
		}
	}
}

// Tests of this package run in parallel only through storagetest.Parallel,
// which reserves the Postgres connections they hold: a test made parallel
// any other way would hold connections the process's bound does not count.
func TestParallelTestsReserveTheirConnections(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	bare := regexp.MustCompile(`\b\w+\.Parallel\(\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if bare.MatchString(line) {
				t.Errorf("%s:%d: %s: run the test in parallel with storagetest.Parallel, which reserves its connections", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
