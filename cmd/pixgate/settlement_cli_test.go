package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

func TestParseAndFormatHold(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "2m": 2 * time.Minute, "24h": 24 * time.Hour, "2d": 48 * time.Hour,
		"1h30m": 90 * time.Minute, " 90d ": 90 * 24 * time.Hour} {
		if got, err := parseHold(in); err != nil || got != want {
			t.Errorf("parseHold(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "abc", "-1h", "91d", "2161h", "9999999999999d", "1.5d"} {
		if _, err := parseHold(bad); err == nil || !strings.Contains(err.Error(), "--cashin-hold") {
			t.Errorf("parseHold(%q) = %v, want an error naming --cashin-hold", bad, err)
		}
	}
	for d, want := range map[time.Duration]string{0: "none", 2 * time.Minute: "2m", 24 * time.Hour: "24h", 90 * time.Minute: "1h30m", 90 * time.Second: "1m30s"} {
		if got := formatHold(d); got != want {
			t.Errorf("formatHold(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestIntegratorHoldAndWalletDebit(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	var in struct {
		ID         int64
		CashInHold string `json:"cashin_hold"`
	}
	p.json(&in, "integrator", "create", "--name", "Loja", "--email", "dev@loja.example", "--cashin-hold", "2m")
	if in.CashInHold != "2m" {
		t.Fatalf("created with hold %q, want 2m", in.CashInHold)
	}
	if code, _, errs := p.run("integrator", "create", "--name", "Outra", "--email", "b@loja.example", "--cashin-hold", "-1h"); code != 1 ||
		!strings.Contains(errs, "--cashin-hold must not be negative") {
		t.Fatalf("negative hold: exit %d: %s", code, errs)
	}

	var upd struct {
		CashInHold  string `json:"cashin_hold"`
		HeldCharges *int   `json:"held_charges"`
	}
	p.json(&upd, "integrator", "update", "--integrator", "1", "--cashin-hold", "24h")
	if upd.CashInHold != "24h" || upd.HeldCharges == nil || *upd.HeldCharges != 0 {
		t.Fatalf("update printed %+v", upd)
	}
	if code, out, _ := p.run("integrator", "update", "--integrator", "1", "--cashin-hold", "0"); code != 0 ||
		!strings.Contains(out, "cash-in hold none (was 24h), for charges paid from now on") {
		t.Fatalf("update to no hold: exit %d: %s", code, out)
	}
	if code, _, errs := p.run("integrator", "update", "--integrator", "99", "--cashin-hold", "1h"); code != 1 || !strings.Contains(errs, "integrator 99 not found") {
		t.Fatalf("update of an unknown integrator: exit %d: %s", code, errs)
	}

	var w struct{ Available, Pending, Debited json.Number }
	p.json(&w, "wallet", "credit", "--integrator", "1", "--amount", "10.00", "--reason", "float")
	code, _, errs := p.run("wallet", "debit", "--integrator", "1", "--amount", "10.01", "--reason", "undo")
	if code != 1 || !strings.Contains(errs, "available balance R$ 10.00 does not cover a debit of R$ 10.01; nothing was changed") {
		t.Fatalf("overdrawing debit: exit %d: %s", code, errs)
	}
	p.json(&w, "wallet", "show", "--integrator", "1")
	if w.Available != "10.00" {
		t.Fatalf("refused debit left available %s", w.Available)
	}
	p.json(&w, "wallet", "debit", "--integrator", "1", "--amount", "10.00", "--reason", "undo the float")
	if w.Available != "0.00" || w.Debited != "10.00" {
		t.Fatalf("debit printed %+v", w)
	}
	if code, _, errs := p.run("wallet", "debit", "--integrator", "99", "--amount", "1.00", "--reason", "x"); code != 1 || !strings.Contains(errs, "integrator 99 not found") {
		t.Fatalf("debit of an unknown integrator: exit %d: %s", code, errs)
	}
	var audit struct{ OK bool }
	p.json(&audit, "audit")
	if !audit.OK {
		t.Fatal("audit not clean after credit and debit")
	}
}
