package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

func TestParsePayoutDeadlineAndSince(t *testing.T) {
	for in, want := range map[string]time.Duration{"120m": 2 * time.Hour, " 2h ": 2 * time.Hour, "0": 0, "90s": 90 * time.Second} {
		if got, err := parsePayoutDeadline(in); err != nil || got != want {
			t.Errorf("parsePayoutDeadline(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "-1m", "721h", "2d"} {
		if _, err := parsePayoutDeadline(bad); err == nil || !strings.Contains(err.Error(), "--payout-deadline") {
			t.Errorf("parsePayoutDeadline(%q) = %v, want an error naming the flag", bad, err)
		}
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d": now.AddDate(0, 0, -7), "24h": now.Add(-24 * time.Hour), "90m": now.Add(-90 * time.Minute),
		"2026-03-01": time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), "2026-03-09T10:00:00-03:00": time.Date(2026, 3, 9, 13, 0, 0, 0, time.UTC),
	} {
		if got, err := parseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-2h", "2026-13-01"} {
		if _, err := parseSince(bad, now); err == nil || !strings.Contains(err.Error(), "--since") {
			t.Errorf("parseSince(%q) = %v, want an error naming --since", bad, err)
		}
	}
}

// The lookup-to-payment ratio: lookups and misses counted per integrator
// and day, payments the withdrawals created, flagged above 2:1 (and any
// lookups without a payment).
func TestLookupsRatio(t *testing.T) {
	storagetest.Parallel(t, cliConns)
	p := newPixgate(t)
	ids := make([]int64, 3)
	for i := range ids {
		var in struct{ ID int64 }
		p.json(&in, "integrator", "create", "--name", "Loja", "--email", fmt.Sprintf("l%d@loja.example", i), "--cashout-fee", "fixed:0")
		p.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(in.ID), "--amount", "100.00", "--reason", "float")
		ids[i] = in.ID
	}
	ctx := context.Background()
	db := openSide(t, p.env["PIXGATE_DATABASE_URL"])
	pay := func(integrator int64) {
		t.Helper()
		id := uuid.Must(uuid.NewV7())
		hash := sha256.Sum256(id[:])
		if _, _, err := db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: id, IntegratorID: integrator, Amount: money.FromReais(1, 0), RequestHash: hash[:],
			CreditParty: storage.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
			Outbox:      []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))}}); err != nil {
			t.Fatal(err)
		}
	}
	count := func(integrator int64, lookups, misses int) {
		t.Helper()
		if err := db.CountKeyLookup(ctx, integrator, lookups, misses); err != nil {
			t.Fatal(err)
		}
	}
	// a: 5 lookups (1 a miss), 2 payments: 2.5, flagged. b: 2 lookups, no
	// payment: flagged. c: 2 lookups, 1 payment: 2.0, not flagged.
	for range 4 {
		count(ids[0], 1, 0)
	}
	count(ids[0], 1, 1)
	pay(ids[0])
	pay(ids[0])
	count(ids[1], 2, 0)
	count(ids[2], 2, 1)
	pay(ids[2])

	var rep struct {
		Integrators []lookupRatioView `json:"integrators"`
	}
	p.json(&rep, "lookups", "ratio")
	byID := map[int64]lookupRatioView{}
	for _, v := range rep.Integrators {
		byID[v.IntegratorID] = v
	}
	if a := byID[ids[0]]; a.Lookups != 5 || a.Misses != 1 || a.Payments != 2 || a.Ratio == nil || *a.Ratio != 2.5 || !a.Flagged {
		t.Errorf("a: %+v", a)
	}
	if b := byID[ids[1]]; b.Lookups != 2 || b.Payments != 0 || b.Ratio != nil || !b.Flagged {
		t.Errorf("b: %+v", b)
	}
	if c := byID[ids[2]]; c.Lookups != 2 || c.Misses != 1 || c.Payments != 1 || c.Ratio == nil || *c.Ratio != 2 || c.Flagged {
		t.Errorf("c: %+v", c)
	}
	p.json(&rep, "lookups", "ratio", "--integrator", fmt.Sprint(ids[2]), "--days", "1")
	if len(rep.Integrators) != 1 || rep.Integrators[0].IntegratorID != ids[2] {
		t.Errorf("one integrator's report: %+v", rep.Integrators)
	}
	code, out, errs := p.run("lookups", "ratio")
	if code != 0 || strings.Count(out, "above 2:1") != 2 || !strings.Contains(out, "2.50") {
		t.Errorf("lookups ratio: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := p.run("lookups", "ratio", "--days", "0"); code == 0 || !strings.Contains(errs, "--days") {
		t.Errorf("--days 0: exit %d: %s", code, errs)
	}
}
