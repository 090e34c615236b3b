package conformancetest

import (
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// paidAlike: what integrators read of a paid charge is the same whatever
// the provider: its provider id (their pix_id) has 32 characters, and its
// read names the end-to-end id of the PIX that paid it (32 characters),
// the document of who paid (Payer or PayerAccount, which the same-holder
// rule needs: Capabilities.PayerDocument) and the account it came from
// (PayerAccount, the debitParty of consult and of the postback).
func paidAlike(e *env, _ providerclient.Kind) {
	t, ctx := e.t, e.t.Context()
	x := e.txn(providerclient.KindCharge)
	pid := e.create(x)
	if len(pid) != 32 {
		t.Fatalf("the charge's provider id %q has %d characters, want 32", pid, len(pid))
	}
	const doc = "12345678909"
	if _, err := e.sb.PayCharge(pid, sandbox.Payer{Name: "Beltrano da Silva", Document: doc}); err != nil {
		t.Fatal(err)
	}
	got := e.awaitFinal(x, pid)
	if len(got.EndToEndID) != 32 {
		t.Fatalf("the paid charge's end-to-end id %q, want 32 characters", got.EndToEndID)
	}
	named := false
	for _, p := range []*providerclient.Party{got.Payer, got.PayerAccount} {
		named = named || (p != nil && p.Document == doc)
	}
	if !named || !e.caps.PayerDocument {
		t.Fatalf("the paid charge names no payer of document %s: payer %+v, account %+v (PayerDocument %v)",
			doc, got.Payer, got.PayerAccount, e.caps.PayerDocument)
	}
	if a := got.PayerAccount; a == nil || (a.Name == "" && a.Document == "" && a.Bank == "") {
		t.Fatalf("the paid charge names no account it came from: %+v", a)
	}
	if again, err := e.conn.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: x.id}); e.caps.ReadsByID &&
		(err != nil || again.ProviderID != pid || again.EndToEndID != got.EndToEndID) {
		t.Fatalf("read by PixGate's id alone: %+v, %v", again, err)
	}
}
