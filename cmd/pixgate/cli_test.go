package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// pixgate runs one command line in-process against the test's database.
type pixgate struct {
	t   *testing.T
	env map[string]string
}

// newPixgate is pixgate on a fresh database, its commands with the suite's
// pool for them (commandConns), and its demo key (if pixgate dev makes
// one) in the test's temporary directory, not the user's cache directory.
func newPixgate(t *testing.T) *pixgate {
	t.Helper()
	url := storagetest.NewDatabaseURL(t)
	storagetest.Use(t, commandConns)
	return &pixgate{t: t, env: map[string]string{
		"PIXGATE_DATABASE_URL":       url,
		"PIXGATE_DATABASE_MAX_CONNS": strconv.Itoa(commandConns),
		"PIXGATE_DEMO_KEY_FILE":      filepath.Join(t.TempDir(), "demo-key.json"),
	}}
}

func (p *pixgate) run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, p.env, &out, &errb)
	return code, out.String(), errb.String()
}

func (p *pixgate) json(v any, args ...string) {
	p.t.Helper()
	code, out, errs := p.run(append(args, "--json")...)
	if code != 0 {
		p.t.Fatalf("pixgate %v: exit %d: %s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		p.t.Fatalf("pixgate %v: stdout is not one JSON object: %v\n%s", args, err, out)
	}
}

func TestIntegratorCreateWalletAndAudit(t *testing.T) {
	storagetest.Parallel(t, commandConns+1) // and a connection of its own
	p := newPixgate(t)
	var in struct {
		ID            int64
		PublicID      string `json:"public_id"`
		Secret        string `json:"secret"`
		WebhookSecret string `json:"webhook_secret"`
		Fees          map[string]struct {
			Type  string
			Value json.Number
			Note  string
		}
	}
	p.json(&in, "integrator", "create", "--name", "Loja", "--email", "dev@loja.example", "--cashin-fee", "percent:1.5", "--cashout-fee", "fixed:0.50")
	if in.ID == 0 || in.PublicID == "" || !strings.HasPrefix(in.Secret, "sk_") || !strings.HasPrefix(in.WebhookSecret, "whsec_") {
		t.Fatalf("integrator create printed %+v", in)
	}
	if f := in.Fees["cashin"]; f.Type != "percent" || f.Value != "1.5" || f.Note == "" {
		t.Fatalf("cash-in fee = %+v", f)
	}
	if f := in.Fees["cashout"]; f.Type != "fixed" || f.Value != "0.50" {
		t.Fatalf("cash-out fee = %+v", f)
	}

	var w struct{ Available, Reserved json.Number }
	p.json(&w, "wallet", "credit", "--integrator", "1", "--amount", "100.00", "--reason", "float")
	if w.Available != "100.00" || w.Reserved != "0.00" {
		t.Fatalf("wallet after credit = %+v", w)
	}

	var audit struct {
		OK         bool
		Violations []struct{ Check, Detail string }
	}
	p.json(&audit, "audit")
	if !audit.OK || len(audit.Violations) != 0 {
		t.Fatalf("audit of a clean ledger = %+v", audit)
	}

	// Corrupt one entry behind the ledger's back: audit must name it and fail.
	storagetest.Use(t, 1)
	conn, err := pgx.Connect(context.Background(), p.env["PIXGATE_DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `UPDATE ledger_entries SET amount = amount - 1 WHERE id = (SELECT max(id) FROM ledger_entries)`); err != nil {
		t.Fatal(err)
	}
	code, out, _ := p.run("audit")
	if code != 1 || !strings.Contains(out, "VIOLATION transaction_unbalanced") || !strings.Contains(out, "VIOLATION balance_mismatch") {
		t.Fatalf("audit of a corrupted ledger: exit %d\n%s", code, out)
	}
	code, out, _ = p.run("audit", "--json")
	if code != 1 || !json.Valid([]byte(out)) || !strings.Contains(out, `"ok": false`) {
		t.Fatalf("audit --json of a corrupted ledger: exit %d\n%s", code, out)
	}
}

func TestKeyCreateAndRevoke(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	p.json(&struct{}{}, "integrator", "create", "--name", "Loja", "--email", "a@b.example")
	var key struct {
		PublicID    string `json:"public_id"`
		Secret      string
		Token       string
		Scopes      []string
		IPAllowlist []string `json:"ip_allowlist"`
	}
	p.json(&key, "key", "create", "--integrator", "1", "--scopes", "charges:read,balance:read", "--ip-allowlist", "203.0.113.7,10.0.0.0/8")
	if key.Token != key.PublicID+"."+key.Secret || len(key.Scopes) != 2 || strings.Join(key.IPAllowlist, ",") != "203.0.113.7/32,10.0.0.0/8" {
		t.Fatalf("key create printed %+v", key)
	}
	var revoked struct{ Revoked bool }
	p.json(&revoked, "key", "revoke", key.PublicID)
	if !revoked.Revoked {
		t.Fatal("key not revoked")
	}
	if code, out, _ := p.run("key", "revoke", key.PublicID); code != 0 || !strings.Contains(out, "was already revoked on") {
		t.Fatalf("revoking a revoked key: exit %d, %q", code, out)
	}
	if _, out, _ := p.run("key", "list", "--integrator", "1"); !strings.Contains(out, "203.0.113.7/32,10.0.0.0/8") ||
		!strings.Contains(out, "  any  ") || strings.Contains(out, "[") {
		t.Fatalf("key list allowlists:\n%s", out)
	}
	var list struct {
		Keys []struct {
			PublicID  string  `json:"public_id"`
			Secret    string  `json:"secret"`
			RevokedAt *string `json:"revoked_at"`
		}
	}
	p.json(&list, "key", "list", "--integrator", "1")
	if len(list.Keys) != 2 || list.Keys[0].RevokedAt == nil || list.Keys[0].Secret != "" {
		t.Fatalf("key list = %+v", list)
	}
}

func TestRefusedInput(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	p.json(&struct{}{}, "integrator", "create", "--name", "Loja", "--email", "a@b.example")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"integrator", "create", "--name", "X", "--email", "not-an-email"}, "--email"},
		{[]string{"integrator", "create", "--name", "X", "--email", "x@y.example", "--cashin-fee", "percent:101"}, "--cashin-fee"},
		{[]string{"integrator", "create", "--name", "X", "--email", "x@y.example", "--cashout-fee", "flat:1"}, "--cashout-fee"},
		{[]string{"integrator", "create", "--name", "X", "--email", "A@B.example"}, "already exists"},
		{[]string{"wallet", "credit", "--integrator", "1", "--amount", "15.505", "--reason", "x"}, "2 decimal places"},
		{[]string{"wallet", "credit", "--integrator", "1", "--amount", "0", "--reason", "x"}, "greater than zero"},
		{[]string{"wallet", "credit", "--integrator", "1", "--amount", "5", "--reason", " "}, "--reason"},
		{[]string{"wallet", "credit", "--integrator", "99", "--amount", "5", "--reason", "x"}, "integrator 99 not found"},
		{[]string{"wallet", "show", "--integrator", "99"}, "integrator 99 not found"},
		{[]string{"key", "list", "--integrator", "99"}, "integrator 99 not found"},
		{[]string{"key", "create", "--integrator", "99"}, "integrator 99 not found"},
		{[]string{"postbacks", "list", "--integrator", "99"}, "integrator 99 not found"},
		{[]string{"postbacks", "show", "0195d1a2-7c3e-7b1a-9f4e-2b8c6d0e1f23"}, "postback 0195d1a2-7c3e-7b1a-9f4e-2b8c6d0e1f23 not found"},
		{[]string{"key", "create", "--integrator", "1", "--scopes", "everything"}, "unknown scope"},
		{[]string{"key", "create", "--integrator", "1", "--ip-allowlist", "10.0.0.300"}, "--ip-allowlist"},
		{[]string{"key", "revoke", "pk_nope"}, "key pk_nope not found"},
	}
	for _, tt := range tests {
		code, _, errs := p.run(tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("pixgate %v: exit %d, stderr %q; want failure mentioning %q", tt.args, code, errs, tt.want)
		}
	}
	var w struct{ Available json.Number }
	p.json(&w, "wallet", "show", "--integrator", "1")
	if w.Available != "0.00" {
		t.Fatalf("refused commands changed the wallet: %+v", w)
	}
}

// TestREADMEConfigTable keeps the README's configuration table in step with
// the code. Regenerate it with `make docs`.
func TestREADMEConfigTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- config:begin -->\n")
	table, _, ok2 := strings.Cut(rest, "<!-- config:end -->")
	if !ok1 || !ok2 {
		t.Fatal("README.md lacks the <!-- config:begin --> / <!-- config:end --> markers")
	}
	if table != configMarkdown() {
		t.Fatal("README.md configuration table is out of date: run `make docs`")
	}
}
