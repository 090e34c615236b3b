package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A first build takes minutes, and make run printed nothing meanwhile: a
// newcomer could not tell it from a hang. make run now says what it does
// before the build, and the README's quick start says so too.
func TestMakeRunSaysTheFirstBuildTakesMinutes(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", "-n", "run") // -n: what make run would do, nothing done
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=") // not an enclosing make test's
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n run: %v\n%s", err, b)
	}
	out := string(b)
	said, built, started := strings.Index(out, "a first build downloads Go modules"), strings.Index(out, "go build"), strings.Index(out, "bin/pixgate dev")
	if said < 0 || built < 0 || started < 0 || said > built || built > started {
		t.Fatalf("make run does not say, before it builds, that a first build takes minutes:\n%s", out)
	}
	if !strings.Contains(out[said:built], "a few minutes") {
		t.Fatalf("make run's first line does not say how long a first build takes:\n%s", out)
	}

	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, quickStart, _ := strings.Cut(string(readme), "## Two commands\n")
	quickStart, _, _ = strings.Cut(quickStart, "\n## ")
	if text := strings.Join(strings.Fields(quickStart), " "); !strings.Contains(text, "The first build downloads the Go modules") ||
		!strings.Contains(text, "a few minutes") {
		t.Fatalf("the README's quick start does not say the first build takes minutes:\n%s", quickStart)
	}
}
