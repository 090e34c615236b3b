package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/migrations"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// pixgate migrate said "database is up to date" on a database it had just
// created and migrated; it now says what it did.
func TestMigrateSaysWhatItDid(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": dbURL(t, name)}}
	n := migrations.Count()
	for i, want := range []string{
		fmt.Sprintf("created database %s on ", name) + "%s" + fmt.Sprintf(" and applied its %d migrations\n", n),
		fmt.Sprintf("database %s on ", name) + "%s" + fmt.Sprintf(" is up to date: its %d migrations were applied before\n", n),
	} {
		code, out, errs := p.run("migrate")
		before, after, _ := strings.Cut(want, "%s")
		if code != 0 || !strings.HasPrefix(out, before) || !strings.HasSuffix(out, after) {
			t.Fatalf("run %d of pixgate migrate: exit %d, %q (%s); want %q", i+1, code, out, errs, want)
		}
	}
	if got := migrateReport("x on h:1", false, 3, n); got != fmt.Sprintf("applied 3 migrations to database x on h:1; it is up to date (%d of %d)", n, n) {
		t.Fatalf("a database behind: %q", got)
	}
}
