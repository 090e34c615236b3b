package main

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// Through /v2, a charge paid is answered alike whatever the provider's
// contract: its transactionId (pix_id) has 32 characters, and consult and
// the PAID postback name the end-to-end id of the PIX that paid it and
// the account it came from (debitParty). The family's sandbox names its
// own account there; efi and woovi name who paid.
func TestE2EV2PaidChargeAlikeOnEachContract(t *testing.T) {
	for _, kind := range []string{"family", "efi", "woovi"} {
		t.Run(kind, func(t *testing.T) {
			storagetest.Parallel(t, devStackConns)
			s := newDevStack(t, contractEnv(t, kind)...)
			token := s.v2Token(s.token)
			code, ch := s.v2("/v2/pix/qrcode", token, map[string]any{"amount": 10.00, "external_id": "pedido-" + kind,
				"postbackUrl": s.receiver.URL + "/pix", "payer": map[string]any{"name": "Fulano de Tal", "document": "529.982.247-25"}})
			pixID, _ := ch["transactionId"].(string)
			if code != http.StatusOK || len(pixID) != 32 {
				t.Fatalf("qrcode: %d %v; want a transactionId of 32 characters", code, ch)
			}
			if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay",
				map[string]any{"payer": map[string]any{"name": "Beltrano da Silva", "document": "123.456.789-09"}}); c != http.StatusOK {
				t.Fatalf("pay: %d %v", c, v)
			}
			answered := func(what string, rb map[string]any) {
				t.Helper()
				e2e, _ := rb["endToEndId"].(string)
				debit, _ := rb["debitParty"].(map[string]any)
				if len(e2e) != 32 || debit["taxId"] == nil || (kind != "family" &&
					(debit["taxId"] != "12345678909" || debit["name"] != "Beltrano da Silva")) {
					t.Fatalf("%s of the paid charge: endToEndId %q, debitParty %v\n%v", what, e2e, rb["debitParty"], rb)
				}
			}
			answered("consult", s.consultStatus(token, pixID, "PAID"))
			var paid map[string]any
			s.eventually("the PAID postback", 10*time.Second, func() bool {
				for _, b := range s.receiver.verified(t, s.webhookSecret) {
					if b["transactionId"] == pixID && b["status"] == "PAID" {
						paid = b
					}
				}
				return paid != nil
			})
			answered("the postback", paid)
			if fmt.Sprint(paid["endToEndId"]) != fmt.Sprint(s.consult(token, pixID)["endToEndId"]) {
				t.Fatalf("the postback and consult name different end-to-end ids: %v", paid)
			}
		})
	}
}
