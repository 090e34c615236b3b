package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// wallet credit and debit posted under a random reference, so an operator
// who ran one again after it seemed to fail (a timeout, a lost terminal)
// could move the money twice. With --reference a second run with the same
// reference is refused and changes nothing.
func TestWalletAdjustmentWithAReferencePostsOnce(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	p.json(&struct{}{}, "integrator", "create", "--name", "Loja", "--email", "ref@loja.example")
	var w struct{ Available json.Number }
	p.json(&w, "wallet", "credit", "--integrator", "1", "--amount", "100.00", "--reason", "float", "--reference", "ticket-4711")
	if w.Available != "100.00" {
		t.Fatalf("after the first credit: available %s, want 100.00", w.Available)
	}
	for _, args := range [][]string{
		{"wallet", "credit", "--integrator", "1", "--amount", "100.00", "--reason", "float", "--reference", "ticket-4711"},
		{"wallet", "debit", "--integrator", "1", "--amount", "100.00", "--reason", "undo", "--reference", "ticket-4711"},
	} {
		code, _, errs := p.run(args...)
		if code == 0 || !strings.Contains(errs, `reference "ticket-4711" was already posted`) {
			t.Fatalf("pixgate %v again: exit %d, stderr %q; want a refusal naming the reference", args, code, errs)
		}
	}
	code, _, errs := p.run("wallet", "credit", "--integrator", "1", "--amount", "1.00", "--reason", "x", "--reference", "has space")
	if code == 0 || !strings.Contains(errs, "--reference") {
		t.Fatalf("a reference with a space: exit %d, stderr %q; want a refusal naming --reference", code, errs)
	}
	p.json(&w, "wallet", "show", "--integrator", "1")
	if w.Available != "100.00" {
		t.Fatalf("available %s after the refused runs, want 100.00", w.Available)
	}
}
