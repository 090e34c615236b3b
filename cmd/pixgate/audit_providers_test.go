package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/worker/provideraudit"
)

// providerAuditView is what pixgate audit --providers --json prints.
type providerAuditView struct {
	OK         bool                 `json:"ok"`
	Violations []storage.Violation  `json:"violations"`
	Providers  provideraudit.Report `json:"providers"`
}

// has reports whether the audit found check about provider (and, when id
// is not "", about that record).
func (v providerAuditView) has(check, provider, id string) bool {
	for _, f := range v.Providers.Findings {
		if f.Check == check && f.Provider == provider && (id == "" || (f.ID != nil && f.ID.String() == id)) {
			return true
		}
	}
	return false
}

// auditProviders runs pixgate audit --providers --json with args, as an
// operator would, and returns its exit code and what it printed.
func (s *devStack) auditProviders(args ...string) (int, providerAuditView) {
	s.t.Helper()
	code, out, errs := s.pg.run(append([]string{"audit", "--providers", "--json", "--settle-wait", "300ms"}, args...)...)
	var v providerAuditView
	if err := json.Unmarshal([]byte(out), &v); (code != 0 && code != 1) || err != nil {
		s.t.Fatalf("pixgate audit --providers: exit %d (%v)\n%s%s", code, err, out, errs)
	}
	if len(v.Violations) > 0 {
		s.t.Fatalf("the ledger's own audit: %v", v.Violations)
	}
	return code, v
}

// withdraw creates a withdrawal of amount and returns its id.
func (s *devStack) withdraw(amount float64) string {
	s.t.Helper()
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": amount, "creditParty": creditParty("beltrano@example.com")})
	if code != http.StatusCreated {
		s.t.Fatalf("create withdrawal: %d %v", code, v)
	}
	return v["id"].(string)
}

// sent waits until withdrawal id is at its provider and returns it as
// PixGate records it.
func (s *devStack) sent(id string) storage.Transfer {
	s.t.Helper()
	var w storage.Transfer
	s.eventually("withdrawal "+id+" sent", 10*time.Second, func() bool {
		var err error
		w, err = s.db.TransferByID(context.Background(), storage.KindWithdrawal, uuid.MustParse(id))
		return err == nil && w.PixID != nil
	})
	return w
}

// sendAt sends withdrawal w again, with PixGate's id, straight to provider
// name's account through a connector of its own: what a second send no
// one recorded does.
func (s *devStack) sendAt(name string, w storage.Transfer) {
	s.t.Helper()
	ctx := context.Background()
	cfg, err := loadConfig(s.pg.env)
	if err != nil {
		s.t.Fatal(err)
	}
	cfg.PublicBaseURL = s.api // as pixgate dev's, so Efí's webhook stays where it was
	c := &cli{environ: s.pg.env, cfg: cfg, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	p, err := s.db.ProviderByName(ctx, name)
	if err != nil {
		s.t.Fatal(err)
	}
	m, err := c.recordProvider(p)
	if err != nil {
		s.t.Fatal(err)
	}
	cp := w.CreditParty
	if _, err := m.Connector.SendPix(ctx, providerclient.PayoutRequest{ID: w.ID.String(), Amount: w.Amount,
		Recipient: providerclient.Recipient{Name: cp.Name, KeyType: cp.KeyType, Key: cp.Key, TaxID: cp.TaxID}}); err != nil {
		s.t.Fatalf("send %s at %s: %v", w.ID, name, err)
	}
}

// pixgate audit --providers against a real stack: clean after a day's
// traffic at two providers of two contracts, then each money mistake made
// at a sandbox behind PixGate's back, one after another, is found and
// named, while the ledger's own audit sees none of them.
func TestE2EAuditProviders(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.addSandbox("b", sandbox.ContractEfi)
	// The operator's environment names the default provider as pixgate
	// dev's does.
	s.pg.env["PIXGATE_PROVIDER_URL"], s.pg.env["PIXGATE_PROVIDER_EXTENSIONS"] = s.sandbox, "true"
	ctx := context.Background()
	for _, p := range []string{"default", "b"} {
		s.pg.json(&floatAdjustView{}, "provider", "adjust", p, "--amount", sandbox.DefaultInitialBalance.String(),
			"--reason", "the account's balance before PixGate", "--reference", "held-"+p)
	}
	s.credit("1000.00")
	control := func(sb, path string, body any) {
		t.Helper()
		if code, v := doJSON(t, http.MethodPost, sb+path, "", body); code != http.StatusOK {
			t.Fatalf("POST %s%s: %d %v", sb, path, code, v)
		}
	}
	completed := func(id string) {
		t.Helper()
		s.eventually("withdrawal "+id+" COMPLETED", 10*time.Second, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	}

	// A day's traffic: a withdrawal at b (Efí's contract, whose statement
	// echoes PixGate's id without its hyphens), a charge paid and two
	// withdrawals at the default provider.
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default", "--withdrawals", "b")
	wb := s.withdraw(7.00)
	completed(wb)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default", "--withdrawals", "default")
	time.Sleep(2500 * time.Millisecond) // each process routes by a snapshot of the routes at most 2s old
	charge, pixID := s.createCharge(50.00, nil)
	control(s.sandbox, "/sandbox/charges/"+pixID+"/pay", nil)
	s.eventually("charge PAID", 10*time.Second, func() bool { return s.status("charges", charge) == "PAID" })
	w0, w2 := s.withdraw(10.00), s.withdraw(12.00)
	completed(w0)
	completed(w2)
	if w := s.sent(wb); w.Provider != "b" {
		t.Fatalf("withdrawal %s at %s, want b", wb, w.Provider)
	}

	code, v := s.auditProviders()
	if code != 0 || !v.OK || v.Providers.Lines != 3 || v.Providers.Matched != 3 || strings.Join(v.Providers.Providers, ",") != "default,b" {
		t.Fatalf("audit --providers of a clean stack: exit %d, %+v", code, v)
	}

	// Money the default provider's account got that PixGate never booked:
	// its balance drifts from its float until an operator books it.
	control(s.sandbox, "/sandbox/discrepancies", map[string]any{"kind": "unknown_pix", "amount": 5.00})
	if code, v = s.auditProviders(); code != 1 || !v.has(provideraudit.FloatBalanceMismatch, "default", "") || len(v.Providers.Findings) != 1 ||
		*v.Providers.Findings[0].Difference != 500 {
		t.Fatalf("after a PIX PixGate never booked: exit %d, %+v", code, v.Providers.Findings)
	}
	s.pg.json(&floatAdjustView{}, "provider", "adjust", "default", "--amount", "5.00", "--reason", "a PIX to no charge", "--reference", "pix-5")
	if code, v = s.auditProviders(); code != 0 {
		t.Fatalf("after booking it: exit %d, %+v", code, v.Providers.Findings)
	}

	// The provider's statement settles w0 for another amount.
	w0rec := s.sent(w0)
	control(s.sandbox, "/sandbox/discrepancies", map[string]any{"kind": "amount_changed", "transaction_id": *w0rec.PixID, "amount": 10.01})
	if code, v = s.auditProviders(); code != 1 || !v.has(provideraudit.AmountMismatch, "default", w0) {
		t.Fatalf("after the provider settled w0 for 10.01: exit %d, %+v", code, v.Providers.Findings)
	}

	// The default provider stops settling by itself: w1 PixGate fails by
	// hand, and the provider then settles; w3 b pays too, sent there with
	// PixGate's id while it is in flight at the default provider.
	control(s.sandbox, "/sandbox/faults", map[string]any{"auto_settle": false})
	w1, w3 := s.withdraw(3.00), s.withdraw(4.00)
	w1rec, w3rec := s.sent(w1), s.sent(w3)
	s.pg.json(&struct{}{}, "transfer", "fail", "--id", w1, "--force", "--reason", "the provider said it never left", "--operator", "ana")
	control(s.sandbox, "/sandbox/transactions/"+*w1rec.PixID+"/settle", nil)
	if code, v = s.auditProviders(); code != 1 || !v.has(provideraudit.FailedButPaid, "default", w1) {
		t.Fatalf("after the provider settled the failed w1: exit %d, %+v", code, v.Providers.Findings)
	}
	s.sendAt("b", w3rec)
	s.eventually("w3 settled at b", 10*time.Second, func() bool {
		_, v = s.auditProviders()
		return v.has(provideraudit.PaidElsewhere, "default", w3)
	})

	// w2, completed at the default provider, paid again at b.
	s.sendAt("b", s.sent(w2))
	s.eventually("w2 settled at b", 10*time.Second, func() bool {
		_, v = s.auditProviders()
		return v.has(provideraudit.PaidTwice, "default", w2)
	})

	// w4 PixGate completes by hand while the provider fails it; a day
	// later (its times moved back, so that its day is over), no statement
	// shows it.
	w4 := s.withdraw(6.00)
	w4rec := s.sent(w4)
	s.pg.json(&struct{}{}, "transfer", "settle", "--id", w4, "--force", "--reason", "the provider said it left", "--operator", "ana")
	control(s.sandbox, "/sandbox/transactions/"+*w4rec.PixID+"/fail", map[string]any{"reason": "conta encerrada"})
	if _, err := s.db.Pool().Exec(ctx, `UPDATE withdrawals SET created_at = created_at - interval '36 hours',
		finished_at = finished_at - interval '36 hours' WHERE id = $1`, w4); err != nil {
		t.Fatal(err)
	}
	since := providerclient.DayOf(time.Now()).AddDays(-3).String()
	code, v = s.auditProviders("--since", since)
	for _, want := range []struct{ check, id string }{
		{provideraudit.CompletedButUnpaid, w4}, {provideraudit.PaidTwice, w2}, {provideraudit.PaidElsewhere, w3},
		{provideraudit.FailedButPaid, w1}, {provideraudit.AmountMismatch, w0},
	} {
		if !v.has(want.check, "default", want.id) {
			t.Errorf("%s of %s not found", want.check, want.id)
		}
	}
	if code != 1 || !v.has(provideraudit.FloatBalanceMismatch, "default", "") || !v.has(provideraudit.FloatBalanceMismatch, "b", "") || t.Failed() {
		t.Fatalf("after every mistake: exit %d, %+v", code, v.Providers.Findings)
	}
	code, out, _ := s.pg.run("audit", "--providers", "--settle-wait", "0s", "--since", since)
	for _, want := range []string{"ledger is consistent", "VIOLATION completed_but_unpaid: withdrawal " + w4,
		"VIOLATION paid_twice: withdrawal " + w2, "at b on"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("audit --providers printed (exit %d), without %q:\n%s", code, want, out)
		}
	}
	s.auditClean() // the ledger alone sees none of it

	// A provider of the family's contract without PixGate's extensions
	// gives no statement: it is named, and no transfer is judged absent on
	// the others' books alone.
	// Its secret is in a file: the test runs beside others, so it sets no
	// variable of the process's environment.
	secretFile := filepath.Join(t.TempDir(), "c-secret")
	if err := os.WriteFile(secretFile, []byte("sandbox\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.pg.json(&providerView{}, "provider", "add", "--name", "c", "--kind", "family", "--url", s.sandbox, "--client-id", "sandbox",
		"--client-secret-file", secretFile)
	code, v = s.auditProviders("--since", since)
	if code != 1 || !v.has(provideraudit.ProviderUnreadable, "c", "") || v.Providers.AbsenceJudged ||
		v.has(provideraudit.CompletedButUnpaid, "default", w4) || !v.has(provideraudit.PaidTwice, "default", w2) {
		t.Fatalf("with a provider that gives no statement: exit %d, %+v", code, v.Providers)
	}
}

// An agreed MED infraction on money already withdrawn: the provider
// returns the whole amount, and so does PixGate's MED return, the
// shortfall booked as the integrator's debt. pixgate audit --providers
// finds the provider's float and its statement in agreement with
// PixGate's books (when the MED return moved only what was blocked, it
// named the MED return's amount and a float overstated by the shortfall).
func TestE2EAuditProvidersMedReturnShortfall(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.pg.env["PIXGATE_PROVIDER_URL"], s.pg.env["PIXGATE_PROVIDER_EXTENSIONS"] = s.sandbox, "true"
	s.pg.json(&floatAdjustView{}, "provider", "adjust", "default", "--amount", sandbox.DefaultInitialBalance.String(),
		"--reason", "the account's balance before PixGate", "--reference", "held-default")
	_, pix := s.paidCharge(100.00, "")
	w := s.withdraw(90.00)
	s.eventually("withdrawal COMPLETED", 10*time.Second, func() bool { return s.status("withdrawals", w) == "COMPLETED" })
	s.control(http.MethodPost, "/sandbox/charges/"+pix+"/infraction", map[string]any{"amount": 100})
	s.eventually("the infraction arrived", 10*time.Second, func() bool { return len(s.infractions("OPEN")) == 1 })
	inf := s.infractions("OPEN")[0]
	if code, v := s.control(http.MethodPost, "/sandbox/infractions/"+inf["provider_id"].(string)+"/close", map[string]any{"result": "AGREED"}); code != http.StatusOK {
		t.Fatalf("close the infraction: %d %v", code, v)
	}
	var medReturn string
	s.eventually("the MED return COMPLETED", 20*time.Second, func() bool {
		err := s.db.Pool().QueryRow(context.Background(), `SELECT id::text FROM med_returns WHERE status = 'COMPLETED'`).Scan(&medReturn)
		return err == nil
	})
	s.auditClean() // the ledger agrees with itself

	// The MED return moves what the provider returned, 100.00, 92.00 of it
	// the integrator's debt: the provider's books agree with PixGate's
	// without any adjustment.
	if code, v := s.auditProviders(); code != 0 {
		t.Fatalf("after the MED return: exit %d, %+v", code, v.Providers.Findings)
	}
	if w := s.wallet(); w.Debt != 9200 {
		t.Fatalf("wallet %+v, want a debt of 92.00", w)
	}
}

// The provider audit's flags are refused, naming the flag, when they are
// not of --providers or name days it cannot read; nothing is read.
func TestAuditProvidersFlagRefusals(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	today := providerclient.DayOf(time.Now())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--since", "yesterday"}, "--since reads the providers' books: it goes with --providers"},
		{[]string{"--settle-wait", "1m"}, "--settle-wait reads the providers' books"},
		{[]string{"--providers", "--since", "someday"}, "--since"},
		{[]string{"--providers", "--until", today.AddDays(1).String()}, "is a day to come"},
		{[]string{"--providers", "--since", "today", "--until", "yesterday"}, "is after --until"},
		{[]string{"--providers", "--settle-wait=-1s"}, "--settle-wait"},
	} {
		code, out, errs := p.run(append([]string{"audit"}, tc.args...)...)
		if code == 0 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("audit %v: exit %d, stdout %q, stderr %q; want a refusal saying %q", tc.args, code, out, errs, tc.want)
		}
	}
}
