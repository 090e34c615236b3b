package main

import (
	"strings"
	"testing"
)

// A mistyped flag (--nme) got "unknown flag: --nme" and nothing more:
// cobra suggests mistyped commands, not flags. It now names the flags of
// the command that come near, and where to find them all.
func TestAMistypedFlagGetsASuggestion(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"integrator", "create", "--nme", "Loja"}, "unknown flag: --nme; did you mean --name? (pixgate integrator create --help lists its flags)"},
		{[]string{"integrator", "create", "--emial=a@b.c"}, "did you mean --email?"},
		{[]string{"integrator", "create", "--NAME", "Loja"}, "did you mean --name?"},
		{[]string{"key", "list", "--integ", "1"}, "did you mean --integrator?"},
		{[]string{"wallet", "show", "--jsn"}, "did you mean --json?"},
		{[]string{"integrator", "create", "--cashin"}, "did you mean one of --cashin-fee, --cashin-hold?"},
		{[]string{"integrator", "list", "--zzzzzz"}, "unknown flag: --zzzzzz; pixgate integrator list --help lists its flags"},
	}
	for _, tc := range cases {
		p := &pixgate{t: t, env: map[string]string{}}
		code, _, errs := p.run(tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("pixgate %s: exit %d, stderr %q; want it to contain %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
	// A flag value pflag cannot parse still says what the flag takes.
	if code, _, errs := (&pixgate{t: t, env: map[string]string{}}).run("key", "list", "--integrator", "abc"); code == 0 ||
		!strings.Contains(errs, `--integrator: "abc" is not a whole number`) {
		t.Errorf("a bad value: exit %d, %q", code, errs)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"nme", "name", 1}, {"name", "name", 0}, {"emial", "email", 2}, {"", "json", 4}, {"kitten", "sitting", 3}, {"ação", "acao", 2},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
