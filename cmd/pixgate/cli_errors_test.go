package main

import (
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// The CLI's rough edges: a flag error quoted Go's parser, a missing
// argument read "accepts 1 arg(s), received 0", a mistyped database URL
// named neither the variable nor the form expected.
func TestCLIErrorsSayWhatIsExpected(t *testing.T) {
	const db = "postgres://postgres@127.0.0.1:5432/pixgate_t_0_never?sslmode=disable"
	for _, tc := range []struct {
		env       string // PIXGATE_DATABASE_URL
		args      []string
		want, not string
	}{
		{db, []string{"wallet", "show", "--integrator", "abc"}, `--integrator: "abc" is not a whole number`, "strconv"},
		{db, []string{"key", "list", "--integrator", "99999999999999999999"}, `--integrator: "99999999999999999999" is out of range`, "strconv"},
		{db, []string{"integrator", "list", "--json=maybe"}, `--json: "maybe" is not true or false`, "strconv"},
		{db, []string{"key", "revoke"}, "key revoke needs PUBLIC_ID (usage: pixgate key revoke PUBLIC_ID", "arg(s)"},
		{db, []string{"postbacks", "show", "1", "2"}, "postbacks show takes one ID, not 2 arguments", "arg(s)"},
		{db, []string{"postbacks", "redeliver"}, "postbacks redeliver needs ID", "arg(s)"},
		{"postgress://postgres:s3cret@127.0.0.1:5432/pixgate", []string{"audit"},
			`PIXGATE_DATABASE_URL: the scheme "postgress" is not postgres:// or postgresql://; expected postgres://`, "s3cret"},
		{"postgres:s3cret@127.0.0.1:5432/pixgate", []string{"audit"},
			"PIXGATE_DATABASE_URL is not a Postgres URL (it lacks the postgres:// scheme); expected postgres://", "s3cret"},
		{"postgres://postgres:s3cret@127.0.0.1:99999/pixgate", []string{"audit"},
			"PIXGATE_DATABASE_URL cannot be read (invalid port); expected postgres://", "s3cret"},
	} {
		p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": tc.env}}
		code, _, errs := p.run(tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) || strings.Contains(errs, tc.not) {
			t.Errorf("pixgate %v: exit %d, stderr %q; want %q, without %q", tc.args, code, errs, tc.want, tc.not)
		}
	}
}

// Times were printed without a zone ("2026-11-25 02:30:00"): which clock?
func TestTimesArePrintedWithTheirZone(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	at := time.Date(2026, 11, 25, 2, 30, 0, 0, time.UTC)
	if got := at.Format(timeLayout); got != "2026-11-25 02:30:00 UTC" {
		t.Fatalf("UTC: %q", got)
	}
	sp := time.FixedZone("-03", -3*3600)
	if got := at.In(sp).Format(timeLayout); got != "2026-11-24 23:30:00 -03" {
		t.Fatalf("São Paulo: %q", got)
	}
	p := newPixgate(t)
	var in struct{ ID int64 }
	p.json(&in, "integrator", "create", "--name", "Loja", "--email", "zona@loja.example")
	_, out, _ := p.run("integrator", "list")
	zone, _ := time.Now().Zone()
	if !strings.Contains(out, " "+zone) {
		t.Fatalf("integrator list shows no zone (%s):\n%s", zone, out)
	}
}
