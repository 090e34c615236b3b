package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// v2Token gets an access token by HTTP Basic with the key pair of a v1
// token, as the provider family's clients do.
func (s *devStack) v2Token(v1Token string) string {
	s.t.Helper()
	publicID, secret, _ := strings.Cut(v1Token, ".")
	req, _ := http.NewRequest(http.MethodPost, s.api+"/v2/oauth/token", nil)
	req.SetBasicAuth(publicID, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != http.StatusOK || tok.AccessToken == "" {
		s.t.Fatalf("token: %d %v", resp.StatusCode, err)
	}
	return tok.AccessToken
}

// v2 posts body to a /v2 route with an access token.
func (s *devStack) v2(path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	return doJSON(s.t, http.MethodPost, s.api+path, "Bearer "+token, body)
}

// consult is the requestBody that consult-transaction answers for pixID.
func (s *devStack) consult(token, pixID string) map[string]any {
	s.t.Helper()
	code, v := s.v2("/v2/consult-transaction", token, map[string]any{"pix_id": pixID})
	rb, _ := v["requestBody"].(map[string]any)
	if code != http.StatusOK || rb == nil {
		s.t.Fatalf("consult %s: %d %v", pixID, code, v)
	}
	return rb
}

// consultStatus waits until consult-transaction says pixID has status.
func (s *devStack) consultStatus(token, pixID, status string) map[string]any {
	s.t.Helper()
	var rb map[string]any
	s.eventually(pixID+" "+status, 5*time.Second, func() bool { rb = s.consult(token, pixID); return rb["status"] == status })
	return rb
}

func (s *devStack) refundCount() int {
	var n int
	if err := s.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM refunds`).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// Through /v2 only, as a client of the provider family: a charge whose BR
// Code is valid, paid through the sandbox and seen PAID by
// consult-transaction; a payment COMPLETED; a partial and then a full
// refund, each COMPLETED, the charge ending REFUNDED; refunds that must be
// refused reserve nothing; the wallet, the postbacks and pixgate audit
// agree.
func TestE2EV2(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.credit("20.00")
	token := s.v2Token(s.token)
	hook := s.receiver.URL + "/pix"

	code, ch := s.v2("/v2/pix/qrcode", token, map[string]any{"amount": 100.00, "external_id": "pedido-v2", "postbackUrl": hook,
		"payerQuestion": "Pedido v2", "payer": map[string]any{"name": "Fulano de Tal", "document": "529.982.247-25"}})
	chargeID, _ := ch["transactionId"].(string)
	if code != http.StatusOK || ch["status"] != "PENDING" || len(chargeID) != 32 || ch["external_id"] != "pedido-v2" {
		t.Fatalf("qrcode: %d %v", code, ch)
	}
	if bc, err := brcodetest.Parse(ch["qrcode"].(string)); err != nil || bc.Amount != money.FromReais(100, 0) {
		t.Fatalf("BR Code %q: %+v, %v", ch["qrcode"], bc, err)
	}
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+chargeID+"/pay", nil); c != http.StatusOK {
		t.Fatalf("pay: %d %v", c, v)
	}
	// The consult carries what the provider told with the payment: the
	// account it came from (the sandbox names itself as the payer's bank),
	// and the question the payer saw.
	if rb := s.consultStatus(token, chargeID, "PAID"); rb["description"] != "Pedido v2" ||
		fmt.Sprint(rb["debitParty"]) != "map[bank:"+sandbox.DefaultMerchantName+" taxId:11222333000181]" {
		t.Fatalf("consult of the paid charge: %v", rb)
	}

	code, pay := s.v2("/v2/pix/payment", token, map[string]any{"amount": 10.00, "external_id": "saque-v2", "postbackUrl": hook,
		"creditParty": creditParty("beltrano@example.com")})
	paymentID, _ := pay["transactionId"].(string)
	if code != http.StatusOK || pay["status"] != "PROCESSING" || len(paymentID) != 32 {
		t.Fatalf("payment: %d %v", code, pay)
	}
	if rb := s.consultStatus(token, paymentID, "COMPLETED"); rb["endToEndId"] == nil {
		t.Fatalf("completed payment %v", rb)
	}

	refund := func(amount float64) string {
		t.Helper()
		code, rf := s.v2("/v2/pix/refund", token, map[string]any{"pix_id": chargeID, "amount": amount, "description": "devolução"})
		if code != http.StatusOK || rf["status"] != "PROCESSING" || rf["pix_id"] != chargeID {
			t.Fatalf("refund %v: %d %v", amount, code, rf)
		}
		return rf["transactionId"].(string)
	}
	partial := refund(40)
	s.consultStatus(token, partial, "COMPLETED")
	if rb := s.consult(token, chargeID); rb["status"] != "PAID" {
		t.Fatalf("after a partial refund the charge is %v", rb["status"])
	}

	// Refused, with nothing reserved.
	_, unpaid := s.v2("/v2/pix/qrcode", token, map[string]any{"amount": 30, "payer": payer})
	var other struct {
		Token string `json:"token"`
	}
	s.pg.json(&other, "integrator", "create", "--name", "Outra Loja", "--email", "outra@loja.example", "--cashin-fee", "fixed:0", "--cashout-fee", "fixed:0")
	otherToken := s.v2Token(other.Token)
	_, theirs := s.v2("/v2/pix/qrcode", otherToken, map[string]any{"amount": 50, "payer": payer})
	s.control(http.MethodPost, "/sandbox/charges/"+theirs["transactionId"].(string)+"/pay", nil)
	s.consultStatus(otherToken, theirs["transactionId"].(string), "PAID")
	before, refunds := s.wallet(), s.refundCount()
	for _, tt := range []struct {
		name   string
		pixID  string
		amount float64
		status int
	}{
		{"above what is left", chargeID, 60.01, http.StatusUnprocessableEntity},
		{"an unpaid charge", unpaid["transactionId"].(string), 1, http.StatusUnprocessableEntity},
		{"another integrator's charge", theirs["transactionId"].(string), 1, http.StatusNotFound},
	} {
		if code, v := s.v2("/v2/pix/refund", token, map[string]any{"pix_id": tt.pixID, "amount": tt.amount}); code != tt.status {
			t.Errorf("refund of %s: %d %v, want %d", tt.name, code, v, tt.status)
		}
	}
	if w, n := s.wallet(), s.refundCount(); w != before || n != refunds {
		t.Fatalf("refused refunds changed the wallet (%+v, was %+v) or the refunds (%d, were %d)", w, before, n, refunds)
	}

	rest := refund(60)
	s.consultStatus(token, rest, "COMPLETED")
	s.consultStatus(token, chargeID, "REFUNDED")

	// 20.00 + 98.50 (100.00 less 1.5%) − 10.50 − 40.50 − 60.50.
	if w := s.wallet(); w.Available != money.FromReais(7, 0) || w.Reserved != 0 {
		t.Fatalf("wallet %+v, want 7.00 available and nothing reserved", w)
	}
	got := map[string]int{}
	s.eventually("postbacks", 3*time.Second, func() bool { return len(s.receiver.deliveries()) == 4 })
	for _, b := range s.receiver.verified(t, s.webhookSecret) {
		got[b["transactionType"].(string)+" "+b["status"].(string)]++
		if b["transactionType"] == "REFUND" && (b["pix_id"] != chargeID || (b["transactionId"] != partial && b["transactionId"] != rest)) {
			t.Errorf("refund postback %v", b)
		}
		if b["transactionType"] == "PAYMENT" && b["transactionId"] != paymentID {
			t.Errorf("payment postback %v: transactionId is not the one the answer gave", b)
		}
	}
	if got["RECEIVEPIX PAID"] != 1 || got["PAYMENT COMPLETED"] != 1 || got["REFUND COMPLETED"] != 2 {
		t.Fatalf("postbacks %v", got)
	}
	s.auditClean()
}

// The sandbox's "expire now" control notifies, and PixGate takes the charge
// to EXPIRED long before its own expiry, with its postback.
func TestE2EV2ChargeExpiredThroughTheSandbox(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	token := s.v2Token(s.token)
	_, ch := s.v2("/v2/pix/qrcode", token, map[string]any{"amount": 12.34, "postbackUrl": s.receiver.URL + "/pix", "payer": payer})
	pixID := ch["transactionId"].(string)
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/expire", nil); c != http.StatusOK {
		t.Fatalf("expire: %d %v", c, v)
	}
	s.consultStatus(token, pixID, "EXPIRED")
	s.eventually("postback received", 3*time.Second, func() bool { return len(s.receiver.deliveries()) == 1 })
	if b := s.receiver.verified(t, s.webhookSecret)[0]; b["transactionType"] != "RECEIVEPIX" || b["status"] != "EXPIRED" || b["transactionId"] != pixID {
		t.Fatalf("postback %v", b)
	}
	s.auditClean()
}
