package main

import (
	"strings"
	"testing"
)

// reconcile resolve (and transfer settle and fail) took the operator from
// $USER, and where it is not set (containers, CI) refused only once run;
// their usage said "default $USER". The usage now says --operator is
// required there, and the refusal names the flag.
func TestOperatorFlagIsRequiredWhereUSERIsUnset(t *testing.T) {
	p := newPixgate(t) // its environment has no USER
	const id = "0195a000-0000-7000-8000-000000000000"
	for _, args := range [][]string{
		{"reconcile", "resolve", id, "--reason", "listed twice"},
		{"transfer", "settle", "--id", id, "--reason", "the provider's statement"},
		{"transfer", "fail", "--id", id, "--reason", "the provider's statement"},
	} {
		_, help, _ := p.run(append(args[:2:2], "--help")...)
		if !strings.Contains(help, "--operator") || !strings.Contains(help, "required where $USER is not set") {
			t.Errorf("pixgate %s --help does not say --operator is required where $USER is not set:\n%s", strings.Join(args[:2], " "), help)
		}
		code, _, errs := p.run(args...)
		if code == 0 || !strings.Contains(errs, "--operator NAME is required") || !strings.Contains(errs, "$USER") {
			t.Errorf("pixgate %v without $USER: exit %d, want a refusal naming --operator: %s", args, code, errs)
		}
		if code, _, errs := p.run(append(args, "--operator", "ana")...); code == 0 || strings.Contains(errs, "--operator") {
			t.Errorf("pixgate %v --operator ana: exit %d, %s (want: not found)", args, code, errs)
		}
	}
}
