package chaos

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBuildRowSumsTheScenariosRecords(t *testing.T) {
	t0 := time.Date(2030, 1, 2, 3, 4, 0, 0, time.UTC)
	sr := scenarioRun{scenario: scenario{name: "api-kill", fault: "an API killed", hold: 10 * time.Second},
		start: t0, injected: t0.Add(10 * time.Second), recovered: t0.Add(20 * time.Second), end: t0.Add(50 * time.Second), audit: "clean"}
	st := scenarioStats{ops: 2000, codes: map[string]int{"conn": 7, "503": 2},
		failedAt: []time.Time{t0.Add(12 * time.Second), t0.Add(23 * time.Second)}, notes: map[string]int{"x": 2}}
	vs := []verdict{
		{scenario: 1, diff: -150, latency: 3 * time.Second, requested: t0.Add(15 * time.Second), finalAt: t0.Add(26 * time.Second)},
		{scenario: 1, name: "withdrawal w-1 of Loja", kind: withdrawalKind, provider: "b", diff: 40, duplicated: 700,
			latency: 75 * time.Second, missing: 2, problems: []string{"p"}},
		{scenario: 1, nonFinal: true},
		{scenario: 2, diff: -999, latency: time.Hour}, // another scenario's
	}
	r := buildRow(1, sr, st, vs, 60*time.Second)
	if r.rate != 40 || r.lost != 150 || r.created != 40 || r.duplicated != 700 || r.late != 1 || r.nonFinal != 1 ||
		r.longest != 75*time.Second || r.missing != 2 || len(r.problems) != 2 ||
		r.problems[0] != "withdrawal w-1 of Loja: final 75 s after its creation, beyond 60 s (provider b)" {
		t.Fatalf("row %+v", r)
	}
	// The last failure started 3 s after the recovery, the record asked for
	// during the fault was final 6 s after it.
	if !r.hasRecovery || r.recovery != 6*time.Second {
		t.Fatalf("recovery %v (%v)", r.recovery, r.hasRecovery)
	}
	if !r.failed() {
		t.Fatal("a row with money lost passes")
	}
	if got := r.failedRequests(); got != "9 (conn×7, 503×2)" {
		t.Fatalf("failed requests %q", got)
	}
	if got := r.stuck(); got != "1 (longest 75 s), 1 never final" {
		t.Fatalf("stuck %q", got)
	}
}

func TestCleanRowPassesAndSkippedRowsAreNotJudged(t *testing.T) {
	clean := row{fault: "f", audit: "clean", codes: map[string]int{"503": 40}}
	if clean.failed() {
		t.Fatal("failed requests alone fail the row: they are what integrators see, not a broken promise")
	}
	if (row{fault: "f", audit: "VIOLATIONS: exit 1"}).failed() == false {
		t.Fatal("an unclean audit passes")
	}
	if (row{fault: "f", skipped: "no ledger"}).failed() {
		t.Fatal("a skipped scenario fails")
	}
}

func TestRenderTable(t *testing.T) {
	rows := []row{
		{fault: "none (baseline)", rate: 39.96, codes: map[string]int{}, audit: "clean", longest: 1200 * time.Millisecond},
		{fault: "Redis FLUSHALL", rate: 40, codes: map[string]int{"401": 4}, audit: "clean", hasRecovery: true,
			recovery: 21 * time.Second, lost: 5, notes: []string{"a note"}, problems: []string{"a problem"}},
		{fault: "provider killed", skipped: "no ledger"},
		{fault: "Postgres", rate: 40, codes: map[string]int{}, audit: "VIOLATIONS: exit status 1 ...", hasRecovery: true},
	}
	var b bytes.Buffer
	renderTable(&b, rows, time.Minute)
	out := b.String()
	for _, want := range []string{
		"| Fault | Load (ops/s) | Failed requests (codes) | Money lost / created / duplicated (centavos) | Records final after 60 s (longest) |",
		"| none (baseline) | 40.0 | 0 | 0 / 0 / 0 | 0 (longest 1.2 s) | 0 | clean | — |",
		"| Redis FLUSHALL | 40.0 | 4 (401×4) | **5 / 0 / 0** | 0 (longest 0.0 s) | 0 | clean | 21 s |",
		"| provider killed | skipped: no ledger |",
		"| **VIOLATIONS** | 0.0 s |",
		"**Redis FLUSHALL**\n\n- a note\n- PROBLEM: a problem\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n|"); n != 5 {
		t.Errorf("%d table lines after the header, want 5:\n%s", n, out)
	}
}

func TestRenderDocSaysWhatWasNotCompared(t *testing.T) {
	var b bytes.Buffer
	renderDoc(&b, nil, reportRun{finalAudit: "clean", global: []string{"wallet of Loja: ..."}})
	out := b.String()
	for _, want := range []string{"# Reliability under faults", "were **not** compared", "PROBLEM: wallet of Loja"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	b.Reset()
	renderDoc(&b, nil, reportRun{finalAudit: "clean", ledger: true})
	if out := b.String(); !strings.Contains(out, "compared with PixGate's, transaction by transaction") || !strings.Contains(out, "Every wallet equals the model") {
		t.Errorf("a clean run with the ledger compared does not say so:\n%s", out)
	}
}

// A scenario with a credit bound judges the charges paid while its fault
// lasted, and only those: one credited late and one never credited are
// counted against their provider, the lags are noted by provider.
func TestCreditLagJudgesChargesPaidDuringTheFault(t *testing.T) {
	t0 := time.Date(2030, 1, 2, 3, 4, 0, 0, time.UTC)
	sr := scenarioRun{scenario: scenario{name: SlowSends, creditBound: 10 * time.Second},
		start: t0, injected: t0.Add(10 * time.Second), recovered: t0.Add(70 * time.Second), end: t0.Add(95 * time.Second)}
	paid := func(at, lag time.Duration, provider string) verdict {
		return verdict{scenario: 1, paidAt: t0.Add(at), finalAt: t0.Add(at + lag), latency: lag, provider: provider}
	}
	vs := []verdict{
		paid(20*time.Second, 2*time.Millisecond, "default"),
		paid(30*time.Second, 12*time.Second, "default"),                      // late
		{scenario: 1, paidAt: t0.Add(40 * time.Second), provider: "default"}, // never credited
		paid(25*time.Second, 30*time.Millisecond, "b"),
		paid(5*time.Second, 30*time.Second, "b"),                       // paid before the fault
		paid(80*time.Second, 30*time.Second, "b"),                      // paid after it
		{scenario: 1, latency: time.Minute},                            // not a paid charge
		{scenario: 2, paidAt: t0.Add(20 * time.Second), provider: "b"}, // another scenario's
	}
	var notes []string
	problems := creditLag(1, sr, vs, &notes)
	want := "2 of the 3 charges paid during the fault at default were credited later than 10 s after their payment (1 never)"
	if len(problems) != 1 || problems[0] != want {
		t.Fatalf("problems %q", problems)
	}
	wantNote := "charges paid during the fault: 4, credited after their payment: default 3 (p50 12 s, p99 55 s, max 55 s); b 1 (p50 30 ms, p99 30 ms, max 30 ms)"
	if len(notes) != 1 || notes[0] != wantNote {
		t.Fatalf("notes %q", notes)
	}
	if got := creditFigures(1, sr, vs); got != "charges paid in the scenario: 6, credited after their payment: default 3 (p50 12 s, p99 55 s, max 55 s); b 3 (p50 30 s, p99 30 s, max 30 s)" {
		t.Fatalf("figures %q", got)
	}
	sr.creditBound = 0
	if problems := creditLag(1, sr, vs, &notes); problems != nil || len(notes) != 1 {
		t.Fatal("a scenario without a credit bound is judged")
	}
}

func TestFiguresAreNearestRank(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	f := figuresOf(ds)
	if f.n != 100 || f.p50 != 50*time.Millisecond || f.p99 != 99*time.Millisecond || f.max != 100*time.Millisecond {
		t.Fatalf("figures %+v", f)
	}
	if ds[0] != 100*time.Millisecond {
		t.Fatal("figuresOf sorted its argument")
	}
	if got := figuresOf([]time.Duration{3 * time.Second}).String(); got != "p50 3.0 s, p99 3.0 s, max 3.0 s" {
		t.Fatalf("one: %q", got)
	}
	if got := figuresOf(nil).String(); got != "none" {
		t.Fatalf("none: %q", got)
	}
}

func TestLagText(t *testing.T) {
	if got := lagText(4 * time.Millisecond); got != "4 ms" {
		t.Fatalf("4 ms: %q", got)
	}
	if got := lagText(1500 * time.Millisecond); got != "1.5 s" {
		t.Fatalf("1.5 s: %q", got)
	}
}
