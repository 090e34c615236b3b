package storage

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/migrations"
)

// move is one row of a kind's table test: whether from may go to to.
type move[S ~string] struct {
	from, to S
	ok       bool
}

// checkMoves checks each case against m, and that every move m allows is
// one of the cases: a move added to a table needs its case, and the SQL
// that makes it.
func checkMoves[S ~string](t *testing.T, m statusMoves[S], cases []move[S]) {
	t.Helper()
	tested := map[[2]S]bool{}
	for _, c := range cases {
		if got := m.can(c.from, c.to); got != c.ok {
			t.Errorf("%s -> %s allowed %v, want %v", c.from, c.to, got, c.ok)
		}
		if !known(m, c.from) || !known(m, c.to) {
			t.Errorf("%s -> %s: not statuses of the table", c.from, c.to)
		}
		tested[[2]S{c.from, c.to}] = c.ok
	}
	for from, out := range m {
		for _, to := range out {
			if !tested[[2]S{from, to}] {
				t.Errorf("%s -> %s is allowed and has no case", from, to)
			}
		}
	}
	if known(m, "") || m.can("", "") {
		t.Error("the empty status is known")
	}
}

// known reports whether s is a status of m.
func known[S ~string](m statusMoves[S], s S) bool {
	_, ok := m[s]
	return ok
}

// sameStatuses checks that the table's statuses, the exported list (nil:
// none) and what the CHECK constraint on table's status column allows are
// the same set.
func sameStatuses[S ~string](t *testing.T, table string, m statusMoves[S], list []S) {
	t.Helper()
	var keys []string
	for s := range m {
		keys = append(keys, string(s))
	}
	slices.Sort(keys)
	if list != nil {
		var listed []string
		for _, s := range list {
			listed = append(listed, string(s))
		}
		slices.Sort(listed)
		if !slices.Equal(listed, keys) {
			t.Errorf("%s: listed statuses %v, table %v", table, listed, keys)
		}
	}
	if checked := checkedStatuses(t, table); !slices.Equal(checked, keys) {
		t.Errorf("%s: the migrations allow %v, the table %v", table, checked, keys)
	}
}

var (
	createTable = regexp.MustCompile(`(?s)CREATE TABLE (\w+) \((.*?)\n\);`)
	statusCheck = regexp.MustCompile(`CHECK \(status IN \(([^)]*)\)\)`)
	alterCheck  = regexp.MustCompile(`ALTER TABLE (\w+) ADD CONSTRAINT \w+_status_check ` + statusCheck.String())
	quoted      = regexp.MustCompile(`'([^']*)'`)
)

// checkedStatuses is what the migrations, applied in order, let table's
// status column hold: its CREATE TABLE's CHECK, or the last constraint a
// later migration added in its place.
func checkedStatuses(t *testing.T, table string) []string {
	t.Helper()
	files, err := fs.Glob(migrations.Files, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var list string
	for _, f := range files { // in order: their names are numbered
		b, err := fs.ReadFile(migrations.Files, f)
		if err != nil {
			t.Fatal(err)
		}
		sql, _, _ := strings.Cut(string(b), "-- +goose Down")
		for _, m := range createTable.FindAllStringSubmatch(sql, -1) {
			if c := statusCheck.FindStringSubmatch(m[2]); m[1] == table && c != nil {
				list = c[1]
			}
		}
		for _, m := range alterCheck.FindAllStringSubmatch(sql, -1) {
			if m[1] == table {
				list = m[2]
			}
		}
	}
	if list == "" {
		t.Fatalf("no migration checks the status of %s", table)
	}
	var out []string
	for _, q := range quoted.FindAllStringSubmatch(list, -1) {
		out = append(out, q[1])
	}
	slices.Sort(out)
	return out
}
