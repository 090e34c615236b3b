package main

import "strings"

// The randomized run writes its own section of docs/reliability.md,
// between two markers, which the scenarios' run keeps as it finds it when
// it rewrites the rest of the page; the randomized run replaces that
// section alone.
const (
	soakBegin = "<!-- soak:begin: written by make soak (pixgate-chaos -soak); make chaos keeps it -->"
	soakEnd   = "<!-- soak:end -->"
)

// soakSection is doc's randomized run's section, markers included, ""
// when it has none.
func soakSection(doc string) string {
	i := strings.Index(doc, soakBegin)
	if i < 0 {
		return ""
	}
	j := strings.Index(doc[i:], soakEnd)
	if j < 0 {
		return ""
	}
	return doc[i : i+j+len(soakEnd)]
}

// withSoakSection is doc with its randomized run's section replaced by
// section, or section appended after a blank line when doc has none; an
// empty section changes nothing.
func withSoakSection(doc, section string) string {
	if section == "" {
		return doc
	}
	if old := soakSection(doc); old != "" {
		return strings.Replace(doc, old, section, 1)
	}
	return strings.TrimRight(doc, "\n") + "\n\n" + section + "\n"
}
