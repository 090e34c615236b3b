package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// payCharge creates a charge of amount and pays it through the sandbox (by
// the charge's own payer unless payerDoc names another), waiting until
// PixGate has it PAID (or, for a payment it must return, REFUNDED).
func (s *devStack) paidCharge(amount float64, payerDoc string) (id, pixID string) {
	s.t.Helper()
	id, pixID = s.createCharge(amount, nil)
	var body any
	if payerDoc != "" {
		body = map[string]any{"payer": map[string]any{"name": "Outra Pessoa", "document": payerDoc}}
	}
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", body); c != http.StatusOK {
		s.t.Fatalf("pay: %d %v", c, v)
	}
	s.eventually("charge paid", 5*time.Second, func() bool {
		st := s.status("charges", id)
		return st == "PAID" && payerDoc == "" || st == "REFUNDED"
	})
	return id, pixID
}

// infractions lists the integrator's infractions of a status.
func (s *devStack) infractions(status string) []map[string]any {
	s.t.Helper()
	code, v := s.call(http.MethodGet, "/api/v1/infractions?status="+status, nil)
	if code != http.StatusOK {
		s.t.Fatalf("list infractions: %d %v", code, v)
	}
	var out []map[string]any
	for _, d := range v["data"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}

// postbacksOf counts the verified postbacks of a transaction type and
// status.
func (s *devStack) postbacksOf(typ, status string) int {
	n := 0
	for _, b := range s.receiver.verified(s.t, s.webhookSecret) {
		if b["transactionType"] == typ && b["status"] == status {
			n++
		}
	}
	return n
}

// The MED end to end with the sandbox: a paid charge's infraction blocks
// its amount at once; a withdrawal that would need the blocked money is
// refused; a defense is kept; closed agreed, the blocked money leaves as
// one MED return and the charge is REFUNDED; another infraction, closed
// disagreed, is released; the audit is clean throughout.
func TestE2EMedInfractions(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_RECONCILE_STALE_AFTER", "2s", "PIXGATE_RECONCILE_INTERVAL", "1s")
	idA, pixA := s.paidCharge(100.00, "")
	_, pixB := s.paidCharge(50.00, "")
	if w := s.wallet(); w.Available != money.FromReais(147, 75) {
		t.Fatalf("wallet %+v before the infraction, want 147.75 available", w)
	}

	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixA+"/infraction", map[string]any{"amount": 100, "reason": "golpe do falso vendedor"}); c != http.StatusOK {
		t.Fatalf("open infraction: %d %v", c, v)
	}
	s.eventually("the infraction blocked", 5*time.Second, func() bool { return s.wallet().Blocked == money.FromReais(100, 0) })
	open := s.infractions("OPEN")
	if len(open) != 1 || open[0]["amount"] != json.Number("100.00") || open[0]["blocked_amount"] != json.Number("100.00") ||
		open[0]["shortfall"] != json.Number("0.00") || open[0]["charge"].(map[string]any)["id"] != idA {
		t.Fatalf("open infractions: %v", open)
	}
	inf := open[0]["id"].(string)
	_, bal := s.call(http.MethodGet, "/api/v1/balance", nil)
	if bal["blocked_balance"] != json.Number("100.00") || bal["available_balance"] != json.Number("47.75") {
		t.Fatalf("balance: %v", bal)
	}
	s.conforms("/api/v1/balance")
	s.conforms("/api/v1/infractions/" + inf)

	// 60.00 + 0.50 needs money the infraction blocked: refused, nothing reserved.
	if code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 60, "creditParty": creditParty("fulano@example.com")}); code != http.StatusUnprocessableEntity || v["code"] != "insufficient_funds" {
		t.Fatalf("withdrawal of blocked money: %d %v", code, v)
	}
	if code, v := s.call(http.MethodPost, "/api/v1/charges/"+idA+"/refunds", map[string]any{"amount": 10}); code != http.StatusUnprocessableEntity || v["code"] != "infraction_open" {
		t.Fatalf("refund of a disputed charge: %d %v", code, v)
	}
	if w := s.wallet(); w.Reserved != 0 || w.Available != money.FromReais(47, 75) {
		t.Fatalf("wallet after the refusals: %+v", w)
	}

	code, v := s.call(http.MethodPost, "/api/v1/infractions/"+inf+"/defense", map[string]any{"text": "O titular autorizou a compra; entrega comprovada."})
	if d, _ := v["defense"].(map[string]any); code != http.StatusOK || d["text"] == nil || d["forwarded"] != false {
		t.Fatalf("defense: %d %v", code, v)
	}
	if code, v := s.call(http.MethodPost, "/api/v1/infractions/"+inf+"/defense", map[string]any{"text": "de novo"}); code != http.StatusConflict || v["code"] != "defense_exists" {
		t.Fatalf("second defense: %d %v", code, v)
	}

	if c, v := s.control(http.MethodPost, "/sandbox/infractions/"+open[0]["provider_id"].(string)+"/close", map[string]any{"result": "AGREED"}); c != http.StatusOK {
		t.Fatalf("close: %d %v", c, v)
	}
	s.eventually("charge REFUNDED by the MED return", 10*time.Second, func() bool { return s.status("charges", idA) == "REFUNDED" })
	s.eventually("the MED return's postback", 5*time.Second, func() bool { return s.postbacksOf("MED_RETURN", "COMPLETED") == 1 })
	if w := s.wallet(); w.Blocked != 0 || w.Reserved != 0 || w.Available != money.FromReais(47, 75) {
		t.Fatalf("wallet after the MED return: %+v", w)
	}
	_, sb := s.control(http.MethodGet, "/sandbox/transactions?type=MED_RETURN", nil)
	var returns int
	if err := s.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM med_returns WHERE status = 'COMPLETED'`).Scan(&returns); err != nil ||
		returns != 1 || len(sb["transactions"].([]any)) != 1 {
		t.Fatalf("MED returns: PixGate %d (%v), the provider %v", returns, err, sb)
	}
	if agreed := s.infractions("AGREED"); len(agreed) != 1 || agreed[0]["med_return_id"] == nil {
		t.Fatalf("agreed: %v", agreed)
	}

	// Another infraction, disagreed: its money is released.
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixB+"/infraction", map[string]any{"amount": 20}); c != http.StatusOK {
		t.Fatalf("open the second: %d %v", c, v)
	} else {
		s.eventually("the second blocked", 5*time.Second, func() bool { return s.wallet().Blocked == money.FromReais(20, 0) })
		s.control(http.MethodPost, "/sandbox/infractions/"+v["transactionId"].(string)+"/close", map[string]any{"result": "DISAGREED"})
	}
	s.eventually("released", 5*time.Second, func() bool { return len(s.infractions("DISAGREED")) == 1 })
	if w := s.wallet(); w.Blocked != 0 || w.Available != money.FromReais(47, 75) {
		t.Fatalf("wallet after the release: %+v", w)
	}
	time.Sleep(500 * time.Millisecond) // a repeated postback would arrive by now
	for _, p := range []struct{ typ, status string }{{"INFRACTION", "OPEN"}, {"INFRACTION", "AGREED"}, {"INFRACTION", "DISAGREED"}, {"MED_RETURN", "COMPLETED"}} {
		want := 1
		if p.status == "OPEN" {
			want = 2
		}
		if n := s.postbacksOf(p.typ, p.status); n != want {
			t.Errorf("%d %s %s postbacks, want %d", n, p.typ, p.status, want)
		}
	}
	s.conforms("/api/v1/infractions")
	s.auditClean()
}

// An agreed MED of 100.00 on a charge of which 70.00 already left the
// wallet: what was left (30.00) is blocked, the rest is the infraction's
// shortfall, shown to the integrator, and no balance goes negative. Agreed,
// the provider returns all 100.00 from PixGate's account: PixGate's MED
// return moves 100.00, so the provider's float keeps equal to its balance,
// and the 70.00 is the integrator's debt, shown in its balance and to the
// operator, and paid from its next cash-in before anything is credited.
func TestE2EMedShortfall(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	op := s.operator()
	difference := func() money.Money {
		t.Helper()
		var out struct{ Providers []floatView }
		op.json(&out, "provider", "balance", "default")
		if len(out.Providers) != 1 || out.Providers[0].Difference == nil {
			t.Fatalf("provider balance: %+v", out)
		}
		return *out.Providers[0].Difference
	}
	before := difference()
	id, pix := s.paidCharge(100.00, "") // 98.50 net
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 68, "creditParty": creditParty("fulano@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("withdrawal: %d %v", code, v)
	}
	s.eventually("withdrawal COMPLETED", 5*time.Second, func() bool { return s.status("withdrawals", v["id"].(string)) == "COMPLETED" })
	s.control(http.MethodPost, "/sandbox/charges/"+pix+"/infraction", map[string]any{"amount": 100})
	s.eventually("the infraction arrived", 5*time.Second, func() bool { return len(s.infractions("OPEN")) == 1 })
	inf := s.infractions("OPEN")[0]
	if inf["blocked_amount"] != json.Number("30.00") || inf["shortfall"] != json.Number("70.00") {
		t.Fatalf("infraction: %v", inf)
	}
	if w := s.wallet(); w.Available != 0 || w.Blocked != money.FromReais(30, 0) || w.Reserved != 0 || w.Debt != 0 {
		t.Fatalf("wallet: %+v", w)
	}
	s.auditClean()

	if c, v := s.control(http.MethodPost, "/sandbox/infractions/"+inf["provider_id"].(string)+"/close", map[string]any{"result": "AGREED"}); c != http.StatusOK {
		t.Fatalf("close: %d %v", c, v)
	}
	s.eventually("charge REFUNDED by the MED return", 10*time.Second, func() bool { return s.status("charges", id) == "REFUNDED" })
	_, bal := s.call(http.MethodGet, "/api/v1/balance", nil)
	if bal["debt_balance"] != json.Number("70.00") || bal["available_balance"] != json.Number("0.00") || bal["blocked_balance"] != json.Number("0.00") {
		t.Fatalf("balance after the MED return: %v", bal)
	}
	s.conforms("/api/v1/balance")
	if d := difference(); d != before {
		t.Fatalf("the provider's balance less its float went from %s to %s: the float does not follow the money that left", before, d)
	}
	var debts struct{ Debts []storage.Debt }
	op.json(&debts, "wallet", "debts")
	if len(debts.Debts) != 1 || debts.Debts[0].IntegratorID != s.integratorID || debts.Debts[0].Owed != money.FromReais(70, 0) {
		t.Fatalf("wallet debts: %+v", debts)
	}
	s.auditClean()

	// The next cash-in, 50.00 (49.25 net), pays the debt first.
	s.paidCharge(50.00, "")
	if w := s.wallet(); w.Debt != money.FromReais(20, 75) || w.Available != 0 {
		t.Fatalf("wallet after a cash-in: %+v, want 20.75 still owed and nothing available", w)
	}
	if d := difference(); d != before {
		t.Fatalf("difference %s after the cash-in, want %s", d, before)
	}
	s.auditClean()
}

// A same-holder integrator: a charge paid by another document is returned
// in full, once, and ends REFUNDED with the reason in the refund's
// postback; one paid by its payer is kept; a withdrawal to another
// holder's key is refused with 422 before anything is reserved, one to the
// recipient's own CPF key goes.
func TestE2ESameHolder(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	if code, out, errs := s.pg.run("integrator", "update", "--integrator", fmt.Sprint(s.integratorID), "--same-holder"); code != 0 {
		t.Fatalf("integrator update: %d %s %s", code, out, errs)
	}
	s.restart() // the API's cached key and integrator are dropped by a notification; a restart makes the test not wait for it

	returned, _ := s.paidCharge(40.00, "11144477735")
	_, ch := s.call(http.MethodGet, "/api/v1/charges/"+returned, nil)
	if ch["refunded_amount"] != json.Number("40.00") || ch["returned_reason"] == nil {
		t.Fatalf("returned charge: %v", ch)
	}
	_, list := s.call(http.MethodGet, "/api/v1/charges/"+returned+"/refunds", nil)
	refunds := list["data"].([]any)
	if r := refunds[0].(map[string]any); len(refunds) != 1 || r["amount"] != json.Number("40.00") || r["fee"] != json.Number("0.00") || r["status"] != "COMPLETED" {
		t.Fatalf("refunds: %v", refunds)
	}
	s.eventually("the refund's postback", 5*time.Second, func() bool { return s.postbacksOf("REFUND", "COMPLETED") == 1 })
	for _, b := range s.receiver.verified(t, s.webhookSecret) {
		if b["transactionType"] == "RECEIVEPIX" {
			t.Fatalf("a postback announced the returned payment: %v", b)
		}
		if b["transactionType"] == "REFUND" && b["description"] == nil {
			t.Fatalf("the refund's postback does not say why: %v", b)
		}
	}
	if w := s.wallet(); w.Available != 0 || w.Reserved != 0 || w.Blocked != 0 {
		t.Fatalf("wallet after the return: %+v", w)
	}
	s.paidCharge(100.00, "") // the payer's own: kept
	if w := s.wallet(); w.Available != money.FromReais(98, 50) {
		t.Fatalf("wallet after the payer's own payment: %+v", w)
	}

	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10, "creditParty": creditParty("outra.pessoa@example.com")})
	if code != http.StatusUnprocessableEntity || v["code"] != "not_same_holder" {
		t.Fatalf("withdrawal to another holder's key: %d %v", code, v)
	}
	var rows int
	if err := s.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM withdrawals`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d withdrawals written (%v)", rows, err)
	}
	if w := s.wallet(); w.Reserved != 0 || w.Available != money.FromReais(98, 50) {
		t.Fatalf("wallet after the refusal: %+v", w)
	}
	own := map[string]any{"name": "Fulano", "keyType": "CPF", "key": "529.982.247-25", "taxId": "52998224725"}
	if code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10, "creditParty": own}); code != http.StatusCreated {
		t.Fatalf("withdrawal to the recipient's own key: %d %v", code, v)
	}
	s.auditClean()
}

// The key lookup shows the holder as banking apps do (the CPF masked),
// marks keys the DICT flags, answers 404 for keys it does not have, and is
// limited per account; a withdrawal to a flagged key is refused by the
// provider when it sends, and fails with nothing spent.
func TestE2EPixKeyLookup(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_KEY_LOOKUPS_PER_MINUTE", "4")
	code, v := s.call(http.MethodGet, "/api/v1/pix-keys/529.982.247-25", nil)
	h, _ := v["holder"].(map[string]any)
	if code != http.StatusOK || v["key_type"] != "CPF" || h["document"] != "***.982.247-**" || h["type"] != "NATURAL_PERSON" || h["name"] == "" {
		t.Fatalf("CPF key: %d %v", code, v)
	}
	s.conforms("/api/v1/pix-keys/cliente%40example.com")
	if code, v := s.call(http.MethodGet, "/api/v1/pix-keys/fraude%40example.com", nil); code != http.StatusOK || v["fraud_marked"] != true {
		t.Fatalf("flagged key: %d %v", code, v)
	}
	if code, v := s.call(http.MethodGet, "/api/v1/pix-keys/inexistente%40example.com", nil); code != http.StatusNotFound || v["code"] != "key_not_found" {
		t.Fatalf("missing key: %d %v", code, v)
	}
	code, v = s.call(http.MethodGet, "/api/v1/pix-keys/%2B5511998765432", nil)
	if code != http.StatusTooManyRequests || v["code"] != "rate_limited" {
		t.Fatalf("the fifth lookup in a minute: %d %v", code, v)
	}
	s.credit("50.00")
	code, v = s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10, "creditParty": creditParty("fraude@example.com")})
	id, _ := v["id"].(string)
	if code != http.StatusCreated || id == "" {
		t.Fatalf("withdrawal to a flagged key: %d %v", code, v)
	}
	s.eventually("withdrawal to a flagged key FAILED", 3*time.Second, func() bool { return s.status("withdrawals", id) == "FAILED" })
	if w := s.wallet(); w.Reserved != 0 || w.Available != money.FromReais(50, 0) {
		t.Fatalf("wallet: %+v", w)
	}
}

// The MED at a provider that takes defenses (the efi contract, which
// PixGate polls for infractions): a charge paid there, its infraction
// blocks what the integrator holds of it (the net; the fee is the
// shortfall); the integrator's defense reaches that provider and is shown
// forwarded; closed agreed, the provider returns the whole amount once,
// the charge is REFUNDED and nothing of it can be refunded again; the
// audit is clean.
func TestE2EMedDefenseReachesTheProvider(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t, "PIXGATE_INFRACTION_POLL", "200ms", "PIXGATE_RECONCILE_INTERVAL", "200ms") // polls come on reconciler ticks
	b := s.addSandbox("b", sandbox.ContractEfi)
	s.pg.json(&routeView{}, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "b", "--withdrawals", "default")
	id, pixID := s.createCharge(100.00, nil)
	if c, v := doJSON(t, http.MethodPost, b.control+"/sandbox/charges/"+pixID+"/pay", "", nil); c != http.StatusOK {
		t.Fatalf("pay at b: %d %v", c, v)
	}
	s.eventually("charge paid at b PAID", 10*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	c, v := doJSON(t, http.MethodPost, b.control+"/sandbox/charges/"+pixID+"/infraction", "", map[string]any{"amount": 100, "reason": "golpe"})
	if c != http.StatusOK {
		t.Fatalf("open infraction at b: %d %v", c, v)
	}
	providerInf := v["transactionId"].(string)
	s.eventually("the infraction polled and blocked", 10*time.Second, func() bool { return s.wallet().Blocked == money.FromReais(98, 50) })
	open := s.infractions("OPEN")
	if len(open) != 1 || open[0]["provider_id"] != providerInf || open[0]["blocked_amount"] != json.Number("98.50") || open[0]["shortfall"] != json.Number("1.50") {
		t.Fatalf("open infractions: %v", open)
	}
	inf := open[0]["id"].(string)

	const text = "O titular autorizou a compra; entrega comprovada."
	code, d := s.call(http.MethodPost, "/api/v1/infractions/"+inf+"/defense", map[string]any{"text": text})
	if def, _ := d["defense"].(map[string]any); code != http.StatusOK || def["text"] != text || def["forwarded"] != true {
		t.Fatalf("defense: %d %v", code, d)
	}
	if c, v := doJSON(t, http.MethodGet, b.control+"/sandbox/transactions/"+providerInf, "", nil); c != http.StatusOK || v["defense"] != text {
		t.Fatalf("the infraction at b: %d %v", c, v)
	}
	if code, v := s.call(http.MethodPost, "/api/v1/infractions/"+inf+"/defense", map[string]any{"text": "de novo"}); code != http.StatusConflict || v["code"] != "defense_exists" {
		t.Fatalf("second defense: %d %v", code, v)
	}

	if c, v := doJSON(t, http.MethodPost, b.control+"/sandbox/infractions/"+providerInf+"/close", "", map[string]any{"result": "AGREED"}); c != http.StatusOK {
		t.Fatalf("close at b: %d %v", c, v)
	}
	s.eventually("charge REFUNDED by the MED return", 20*time.Second, func() bool { return s.status("charges", id) == "REFUNDED" })
	s.eventually("the MED return's postback", 5*time.Second, func() bool { return s.postbacksOf("MED_RETURN", "COMPLETED") == 1 })
	if w := s.wallet(); w.Blocked != 0 || w.Reserved != 0 || w.Available != 0 {
		t.Fatalf("wallet after the MED return: %+v", w)
	}
	var returns int
	if err := s.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM med_returns WHERE status = 'COMPLETED' AND provider = 'b'`).Scan(&returns); err != nil || returns != 1 {
		t.Fatalf("MED returns completed at b: %d (%v)", returns, err)
	}
	s.credit("10.00")
	if code, v := s.call(http.MethodPost, "/api/v1/charges/"+id+"/refunds", map[string]any{"amount": 1}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a refund of the charge the MED return repaid: %d %v", code, v)
	}
	s.auditClean()
}
