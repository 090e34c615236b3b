package chaos

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestTheRandomizedRunsSectionSurvivesTheScenariosRun(t *testing.T) {
	section := soakBegin + "\n## Randomized run\n\nseed 1\n" + soakEnd
	chaos := "# Reliability under faults\n\n## The last run\n\ntable\n"
	// The randomized run appends its section to a page without one ...
	doc := withSoakSection(chaos, section)
	if doc != chaos+"\n"+section+"\n" || soakSection(doc) != section {
		t.Fatalf("appended:\n%s", doc)
	}
	// ... the scenarios' run rewrites the rest and keeps it ...
	rewritten := withSoakSection("# Reliability under faults\n\n## The last run\n\nanother table\n", soakSection(doc))
	if soakSection(rewritten) != section || !strings.Contains(rewritten, "another table") {
		t.Fatalf("kept:\n%s", rewritten)
	}
	// ... and the next randomized run replaces it alone.
	next := soakBegin + "\n## Randomized run\n\nseed 2\n" + soakEnd
	replaced := withSoakSection(rewritten, next)
	if strings.Contains(replaced, "seed 1") || soakSection(replaced) != next || !strings.HasPrefix(replaced, "# Reliability under faults\n\n## The last run\n\nanother table\n") {
		t.Fatalf("replaced:\n%s", replaced)
	}
	if withSoakSection(chaos, "") != chaos || soakSection(chaos) != "" || soakSection(soakBegin+" unterminated") != "" {
		t.Fatal("a page without the section")
	}
}

func TestRenderSoakNamesTheSeedTheCommandAndEachFinding(t *testing.T) {
	begin := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	r := soakReport{seed: 123456789, command: "go run ./cmd/pixgate-chaos -soak -seed 123456789 -ops 100 -rate 10 -bin bin/pixgate",
		ops: 100, started: 100, rate: 10, audit: "clean", auditProvider: "not in this binary",
		times: soakTimes{begin: begin, load: begin.Add(5 * time.Second), loadEnd: begin.Add(15 * time.Second),
			tailEnd: begin.Add(20 * time.Second), drainEnd: begin.Add(30 * time.Second)},
		faults: []faultRun{{planFault: planFault{Kind: faultOutage, Target: 2, For: 4 * time.Second},
			injected: begin.Add(8 * time.Second), recovered: begin.Add(12 * time.Second)}},
		plannedFaults: 1}
	r.res = check(checkInput{})
	r.res.add(findPaidTwice, 500, "withdrawal w-1 of Loja A was completed 2 times (at [b default])")
	var b bytes.Buffer
	renderSoak(&b, r)
	out := b.String()
	for _, want := range []string{
		"Seed **123456789**", r.command, "**FAILED**", "| paid twice | 1 | 500 |", "| lost | 0 | 0 |",
		"- PAID TWICE: withdrawal w-1 of Loja A was completed 2 times", "| provider down | 1 | 4.0 s | c 1 |",
		"30 s in all", "`pixgate audit --providers`: not in this binary",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the section lacks %q:\n%s", want, out)
		}
	}
}
