package main

import (
	"io/fs"
	"path/filepath"
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
