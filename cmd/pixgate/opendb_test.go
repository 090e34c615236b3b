package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Operator commands never create or migrate a database: a mistyped name
// fails with a clear message and a non-zero exit, and nothing is created.
func TestOperatorCommandsRefuseAMissingDatabase(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": dbURL(t, name)}}
	for _, args := range operatorCommands() {
		code, out, errs := p.run(args...)
		if code == 0 || !strings.Contains(errs, "does not exist") || !strings.Contains(errs, "pixgate migrate") {
			t.Errorf("pixgate %v on a missing database: exit %d\nstdout %s\nstderr %s", args, code, out, errs)
		}
		if strings.Contains(out, "consistent") {
			t.Errorf("pixgate %v reported on a database that does not exist: %s", args, out)
		}
	}
	if databaseExists(t, name) {
		t.Fatalf("an operator command created database %s", name)
	}
}

// An existing but empty (or older) database is refused too, and left as it
// was: not even goose's version table appears.
func TestOperatorCommandsRefuseAnUnmigratedDatabase(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	adminExec(t, "CREATE DATABASE "+name)
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_DATABASE_URL": dbURL(t, name)}}
	for _, args := range operatorCommands() {
		code, _, errs := p.run(args...)
		if code == 0 || !strings.Contains(errs, "not migrated") || !strings.Contains(errs, "pixgate migrate") {
			t.Errorf("pixgate %v on an empty database: exit %d, stderr %s", args, code, errs)
		}
	}
	conn, err := pgx.Connect(context.Background(), dbURL(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var tables int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Fatalf("operator commands wrote %d tables into an unmigrated database", tables)
	}
	// migrate is the command that may: afterwards the same commands work.
	if code, _, errs := p.run("migrate"); code != 0 {
		t.Fatalf("pixgate migrate: %s", errs)
	}
	if code, out, errs := p.run("audit"); code != 0 || !strings.Contains(out, "consistent") {
		t.Fatalf("pixgate audit after migrate: exit %d %s %s", code, out, errs)
	}
}

func operatorCommands() [][]string {
	return [][]string{
		{"audit"},
		{"integrator", "list"},
		{"key", "list", "--integrator", "1"},
		{"wallet", "show", "--integrator", "1"},
		{"postbacks", "list", "--integrator", "1"},
		{"transfer", "list"},
	}
}

func dbURL(t *testing.T, name string) string {
	t.Helper()
	cc, err := pgx.ParseConfig(storagetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cc.User, cc.Host, cc.Port, name)
}

func databaseExists(t *testing.T, name string) bool {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), storagetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var exists bool
	if err := conn.QueryRow(context.Background(), `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	return exists
}

func adminExec(t *testing.T, sql string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), storagetest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}
