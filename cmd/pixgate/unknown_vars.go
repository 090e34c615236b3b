package main

import (
	"slices"
	"strings"
)

// otherPixgateVars are PIXGATE_* variables that are not settings but are
// set on purpose: the README's tour and pixgate dev's banner export
// PIXGATE_AUTH; the test suite reads PIXGATE_TEST_* (README, Tests).
var otherPixgateVars = []string{"PIXGATE_AUTH"}

// warnUnknownVars warns about each PIXGATE_* variable in the environment
// that no setting reads, a misspelling most likely, with the setting its
// name is closest to: ignored in silence, it left the default in force.
func (c *cli) warnUnknownVars() {
	known := configVars()
	for _, name := range sortedKeys(c.environ) {
		if !strings.HasPrefix(name, "PIXGATE_") || strings.HasPrefix(name, "PIXGATE_TEST_") || slices.Contains(otherPixgateVars, name) {
			continue
		}
		if slices.ContainsFunc(known, func(v configVar) bool { return v.Name == name }) {
			continue
		}
		if near := nearestSetting(name, known); near != "" {
			c.log.Warn("unknown setting ignored: "+name+"; did you mean "+near+"?", "variable", name, "suggestion", near)
		} else {
			c.log.Warn("unknown setting ignored: "+name+" (pixgate env lists the settings)", "variable", name)
		}
	}
}

// nearestSetting is the setting whose name is within a few edits of name,
// or "" when none is close enough to be what was meant.
func nearestSetting(name string, known []configVar) string {
	best, bestDist := "", 4 // more edits than this is another word
	for _, v := range known {
		if d := editDistance(name, v.Name); d < bestDist {
			best, bestDist = v.Name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b: the
// insertions, deletions and substitutions of one character that turn a
// into b.
func editDistance(sa, sb string) int {
	a, b := []rune(sa), []rune(sb)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
