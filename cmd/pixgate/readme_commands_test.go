package main

import (
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The README wrote `pixgate env`, `pixgate audit`... where a newcomer has
// bin/pixgate, and "pixgate: command not found" was the answer. Its
// command table now writes bin/pixgate, and each command it names exists.
func TestREADMECommandsAreBinPixgateAndExist(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## The `pixgate` command\n")
	section, _, _ = strings.Cut(section, "\n## ")
	root := (&cli{environ: map[string]string{}, stdout: io.Discard, stderr: io.Discard}).rootCommand()
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") || strings.HasPrefix(line, "| Command") {
			continue
		}
		rows++
		first, _, _ := strings.Cut(line, " | ")
		for _, span := range regexp.MustCompile("`[^`]*`").FindAllString(first, -1) {
			span = strings.Trim(span, "`")
			words := strings.Fields(span)
			if words[0] != "bin/pixgate" {
				if len(words) > 0 && words[0] == "pixgate" {
					t.Errorf("README command %q: the binary is bin/pixgate", span)
				}
				continue // `show ID`, a subcommand of the one before
			}
			var path []string
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") || strings.ToUpper(w) == w {
					break
				}
				path = append(path, w)
			}
			cmd, rest, err := root.Find(path)
			if err != nil || len(rest) > 0 || (len(path) > 0 && cmd.Name() != path[len(path)-1]) {
				t.Errorf("README command %q: no such command (%v)", span, err)
			}
		}
	}
	if rows < 10 {
		t.Fatalf("found %d command rows in the README", rows)
	}
}
