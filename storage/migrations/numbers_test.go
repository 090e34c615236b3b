package migrations

import (
	"io/fs"
	"strconv"
	"strings"
	"testing"
)

// Migrations are numbered 1, 2, 3… without a gap or a number twice: two
// changes landing at once under one number would make goose refuse to
// migrate, and every process with it.
func TestMigrationNumbersAreUniqueAndContiguous(t *testing.T) {
	names, err := fs.Glob(Files, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]string{}
	for _, name := range names {
		prefix, _, _ := strings.Cut(name, "_")
		n, err := strconv.Atoi(prefix)
		if err != nil {
			t.Fatalf("%s: no number", name)
		}
		if other, ok := seen[n]; ok {
			t.Errorf("%s and %s have the same number: take the next free one", other, name)
		}
		seen[n] = name
	}
	for n := 1; n <= len(names); n++ {
		if _, ok := seen[n]; !ok {
			t.Errorf("no migration numbered %d", n)
		}
	}
}
