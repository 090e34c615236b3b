package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// payoutItems are n withdrawal requests of R$ 1.00 each, to the
// receiver, their external_ids prefix-0 ... prefix-(n-1); those at the
// indexes in bad get an e-mail key that is not one.
func payoutItems(prefix, postbackURL string, n int, bad ...int) []map[string]any {
	items := make([]map[string]any, n)
	for i := range items {
		key := fmt.Sprintf("recebedor%d@example.com", i)
		items[i] = map[string]any{"external_id": fmt.Sprintf("%s-%d", prefix, i), "amount": 1.00, "postbackUrl": postbackURL,
			"creditParty": map[string]any{"name": "Recebedor", "keyType": "EMAIL", "key": key, "taxId": "52998224725"}}
	}
	for _, i := range bad {
		items[i]["creditParty"].(map[string]any)["key"] = "not-an-email"
	}
	return items
}

// batchStatus reads the batch's status as token's integrator.
func (s *devStack) batchStatus(token, ref string) map[string]any {
	_, v := doJSON(s.t, http.MethodGet, s.api+"/api/v1/withdrawals/batches/"+ref, "Bearer "+token, nil)
	return v
}

// payoutPostbacks counts the verified deliveries by transactionType and by
// the record's id.
func (s *devStack) payoutPostbacks() (byType map[string]int, byID map[string]int) {
	byType, byID = map[string]int{}, map[string]int{}
	for _, b := range s.receiver.verified(s.t, s.webhookSecret) {
		byType[fmt.Sprint(b["transactionType"])+"/"+fmt.Sprint(b["status"])]++
		byID[fmt.Sprint(b["id"])]++
	}
	return byType, byID
}

// Batch payouts with maker-checker approval, end to end on a pixgate dev
// stack: (a) a batch of 1,000 with 10 bad items is refused whole, each
// named, nothing reserved; (b) with approval on (set by the CLI), a batch
// of 1,000 created by one key waits, is refused to that key (self-approval),
// approved by a second key (created by the CLI), and every item is paid,
// with exactly one postback per item and one for the batch; (c) a batch
// rejected gives every centavo back, its items and itself told by
// postback. `pixgate audit` is clean after each.
func TestE2EBatchPayouts(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	s.credit("5000.00")
	url := s.receiver.URL + "/pix"
	before := s.wallet()

	// (a) Refused whole.
	bad := []int{3, 100, 250, 401, 512, 600, 777, 800, 901, 999}
	code, v := doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches", "Bearer "+s.token,
		map[string]any{"external_id": "lote-ruim", "items": payoutItems("ruim", url, 1000, bad...)})
	errs, _ := v["errors"].(map[string]any)
	if code != http.StatusUnprocessableEntity || len(errs) != len(bad) {
		t.Fatalf("a batch with %d bad items: %d, %d errors: %v", len(bad), code, len(errs), v["message"])
	}
	for _, i := range bad {
		if _, ok := errs[fmt.Sprintf("items[%d].creditParty.key", i)]; !ok {
			t.Fatalf("items[%d] is not named: %v", i, errs)
		}
	}
	if w := s.wallet(); w != before {
		t.Fatalf("wallet after a refused batch %+v, before %+v", w, before)
	}
	s.auditClean()

	// (b) Approval on; a second key, the checker.
	integrator := fmt.Sprint(s.integratorID)
	var updated struct{ Approval struct{ All bool } }
	s.pg.json(&updated, "integrator", "update", "--integrator", integrator, "--approval-all", "--approval-expiry", "1h")
	if !updated.Approval.All {
		t.Fatalf("integrator update: %+v", updated)
	}
	var checker struct{ Token string }
	s.pg.json(&checker, "key", "create", "--integrator", integrator, "--scopes", "withdrawals:approve,withdrawals:read")
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches", "Bearer "+s.token,
		map[string]any{"external_id": "lote-bom", "postbackUrl": url, "items": payoutItems("bom", url, 1000)})
	if code != http.StatusCreated || v["status"] != "AWAITING_APPROVAL" || fmt.Sprint(v["count"]) != "1000" {
		t.Fatalf("held batch: %d %v", code, v)
	}
	batchID := v["id"].(string)
	if w := s.wallet(); w.Reserved != before.Reserved+1500_00 || w.Available != before.Available-1500_00 {
		t.Fatalf("held batch reserved %+v", w)
	}
	time.Sleep(500 * time.Millisecond) // a send would have started by now
	if n := s.countWithdrawals(`batch_id = $1 AND status <> 'AWAITING_APPROVAL'`, batchID); n != 0 {
		t.Fatalf("%d items of a held batch moved", n)
	}
	// (d) The key that created it may not approve it.
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches/lote-bom/approve", "Bearer "+s.token, nil)
	if code != http.StatusForbidden || v["code"] != "self_approval" {
		t.Fatalf("self-approval: %d %v", code, v)
	}
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches/lote-bom/approve", "Bearer "+checker.Token, nil)
	if code != http.StatusOK || v["status"] != "PROCESSING" {
		t.Fatalf("approve: %d %v", code, v)
	}
	var b map[string]any
	start := time.Now()
	for b = s.batchStatus(s.token, batchID); b["status"] != "COMPLETED"; b = s.batchStatus(s.token, batchID) {
		if time.Since(start) > 45*time.Second {
			t.Fatalf("the batch is not COMPLETED within 45 s: %v", b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(start)
	if fmt.Sprint(b["completed"]) != "1000" || fmt.Sprint(b["failed"]) != "0" {
		t.Fatalf("completed batch: %v", b)
	}
	t.Logf("1,000 approved withdrawals paid and the batch COMPLETED %v after the approval", took)
	s.eventually("1,001 postbacks", 20*time.Second, func() bool { return len(s.receiver.deliveries()) >= 1001 })
	time.Sleep(300 * time.Millisecond) // a duplicate would arrive by now
	byType, byID := s.payoutPostbacks()
	if byType["PAYMENT/COMPLETED"] != 1000 || byType["PAYMENT_BATCH/COMPLETED"] != 1 || len(byID) != 1001 {
		t.Fatalf("postbacks by type %v, %d records", byType, len(byID))
	}
	for id, n := range byID {
		if n != 1 {
			t.Fatalf("record %s got %d postbacks", id, n)
		}
	}
	if w := s.wallet(); w.Reserved != before.Reserved || w.Available != before.Available-1500_00 {
		t.Fatalf("wallet after the paid batch %+v", w)
	}
	s.auditClean()

	// (c) A batch rejected: every centavo back.
	paid := s.wallet()
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches", "Bearer "+s.token,
		map[string]any{"external_id": "lote-recusado", "postbackUrl": url, "items": payoutItems("recusado", url, 300)})
	if code != http.StatusCreated || v["status"] != "AWAITING_APPROVAL" {
		t.Fatalf("second held batch: %d %v", code, v)
	}
	rejectedID := v["id"].(string)
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches/"+rejectedID+"/reject", "Bearer "+checker.Token,
		map[string]any{"reason": "folha em duplicidade"})
	if code != http.StatusOK || v["status"] != "REJECTED" || fmt.Sprint(v["failed"]) != "300" {
		t.Fatalf("reject: %d %v", code, v)
	}
	if w := s.wallet(); w != paid {
		t.Fatalf("wallet after the rejection %+v, before the batch %+v", w, paid)
	}
	code, v = doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals/batches/"+rejectedID+"/approve", "Bearer "+checker.Token, nil)
	if code != http.StatusConflict || v["code"] != "not_awaiting_approval" {
		t.Fatalf("approve after the rejection: %d %v", code, v)
	}
	s.eventually("the rejection's 301 postbacks", 20*time.Second, func() bool { return len(s.receiver.deliveries()) >= 1302 })
	time.Sleep(300 * time.Millisecond)
	byType, _ = s.payoutPostbacks()
	if byType["PAYMENT/FAILED"] != 300 || byType["PAYMENT_BATCH/REJECTED"] != 1 || len(s.receiver.deliveries()) != 1302 {
		t.Fatalf("postbacks after the rejection: %v (%d deliveries)", byType, len(s.receiver.deliveries()))
	}
	for _, d := range s.receiver.deliveries() {
		if strings.Contains(string(d.body), `"PAYMENT_BATCH"`) && strings.Contains(string(d.body), `"REJECTED"`) {
			var body struct {
				RequestBody struct {
					RejectionReason string `json:"rejection_reason"`
				} `json:"requestBody"`
			}
			if err := json.Unmarshal(d.body, &body); err != nil || body.RequestBody.RejectionReason != "rejected: folha em duplicidade" {
				t.Fatalf("the rejected batch's postback: %s", d.body)
			}
		}
	}
	s.auditClean()
}

// countWithdrawals counts the withdrawals where cond holds.
func (s *devStack) countWithdrawals(cond string, args ...any) int {
	s.t.Helper()
	var n int
	if err := s.db.Pool().QueryRow(s.t.Context(), `SELECT count(*) FROM withdrawals WHERE `+cond, args...).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n
}
