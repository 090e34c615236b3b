package main

import (
	"strings"
	"testing"
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
