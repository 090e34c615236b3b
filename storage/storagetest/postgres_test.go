package storagetest

import (
	"regexp"
	"testing"
)

// Tests that make a database themselves named it by the second, so two
// test processes (two checkouts, or a rerun) starting in the same second
// created, used and dropped one another's database. Names now never meet,
// and have the shape dropStale clears after a dead run.
func TestNewDatabaseNameIsNeverShared(t *testing.T) {
	stale := regexp.MustCompile(`^pixgate_(t|tpl)_[0-9]+_[0-9a-f]+$`)
	seen := map[string]bool{}
	for range 100 {
		name := NewDatabaseName(t)
		if seen[name] {
			t.Fatalf("%s given twice", name)
		}
		if !stale.MatchString(name) {
			t.Fatalf("%s is not a name dropStale would clear", name)
		}
		seen[name] = true
	}
}
