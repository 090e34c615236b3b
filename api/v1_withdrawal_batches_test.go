package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// payoutItem is a valid withdrawal request with external_id ext.
func payoutItem(ext string, edits map[string]string) string {
	all := map[string]string{"external_id": `"` + ext + `"`}
	for k, v := range edits {
		all[k] = v
	}
	return validWithdrawal(all)
}

func batchBody(ext string, items ...string) string {
	return `{"external_id": "` + ext + `", "items": [` + strings.Join(items, ",") + `]}`
}

// A bad batch is refused whole: every bad item named by its path, nothing
// written; external_ids repeated within it too.
func TestWithdrawalBatchRefusesBadItemsWhole(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Lote", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(1000, 0))
	r := e.call(http.MethodPost, "/api/v1/withdrawals/batches", token, batchBody("lote-1",
		payoutItem("w-0", nil),
		payoutItem("w-1", map[string]string{"creditParty": party("B", "EMAIL", "not-an-email", "52998224725")}),
		payoutItem("w-2", map[string]string{"amount": `"10.00"`}),
		payoutItem("w-0", nil),
		validWithdrawal(map[string]string{"external_id": "null"}),
	)).expectError(t, http.StatusUnprocessableEntity, codeValidation)
	for _, f := range []string{"items[1].creditParty.key", "items[2].amount", "items[3].external_id", "items[4].external_id"} {
		if _, ok := r.fieldErrors()[f]; !ok {
			t.Errorf("no error names %s: %s", f, r.raw)
		}
	}
	if len(r.fieldErrors()) != 4 {
		t.Errorf("errors %v, want exactly the four bad items", r.fieldErrors())
	}
	e.call(http.MethodPost, "/api/v1/withdrawals/batches", token, `{"items": []}`).expectError(t, 422, codeValidation)
	if n := e.count(`SELECT count(*) FROM withdrawals WHERE integrator_id = $1`, in.ID); n != 0 {
		t.Fatalf("%d withdrawals written", n)
	}
	if w := e.wallet(in.ID); w.Available != 1000_00 || w.Reserved != 0 {
		t.Fatalf("wallet %+v", w)
	}
	// Beyond the balance: insufficient_funds, nothing reserved.
	big := make([]string, 3)
	for i := range big {
		big[i] = payoutItem(fmt.Sprintf("big-%d", i), map[string]string{"amount": "400.00"})
	}
	r = e.call(http.MethodPost, "/api/v1/withdrawals/batches", token, batchBody("lote-big", big...)).
		expectError(t, http.StatusUnprocessableEntity, codeInsufficientFunds)
	if _, ok := r.fieldErrors()["items"]; !ok {
		t.Errorf("insufficient funds does not name items: %s", r.raw)
	}
	if w := e.wallet(in.ID); w.Available != 1000_00 || w.Reserved != 0 {
		t.Fatalf("wallet after a refused batch %+v", w)
	}
}

// A CSV batch: created from its lines; its problems named by line and
// column, the header being line 1.
func TestWithdrawalBatchCSV(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja CSV", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(1000, 0))
	csvType := []string{"Content-Type", "text/csv"}
	good := "amount,key_type,key,name,tax_id,external_id,description\n" +
		"10.00,CPF,52998224725,Fulano,52998224725,c-1,Salário\n" +
		"20.50,EMAIL,fulano@example.com,Fulano,52998224725,c-2,\n"
	b := e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv?external_id=folha-1", token, good, csvType...).expect(t, http.StatusCreated)
	if b.get("count") != "2" || b.get("amount") != "30.50" || b.get("fee") != "1.00" || b.str("status") != "PROCESSING" {
		t.Fatalf("CSV batch: %s", b.raw)
	}
	e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv?external_id=folha-1", token, good, csvType...).expect(t, http.StatusOK)
	bad := "amount,key_type,key,name,tax_id,external_id\n" +
		"10.00,CPF,52998224725,Fulano,52998224725,d-1\n" +
		"10.00,EMAIL,52998224725,Fulano,52998224725,d-2\n" +
		"1.005,CPF,52998224725,Fulano,52998224725,d-3\n" +
		"10.00,CPF,52998224725,Fulano,52998224725,d-1\n"
	r := e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv?external_id=folha-2", token, bad, csvType...).expectError(t, 422, codeValidation)
	for _, f := range []string{"line 3: key", "line 4: amount", "line 5: external_id"} {
		if _, ok := r.fieldErrors()[f]; !ok {
			t.Errorf("no error names %q: %s", f, r.raw)
		}
	}
	r = e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv?external_id=folha-3", token, "amount,key,nome\n1,2,3\n", csvType...).
		expectError(t, 422, codeValidation)
	if _, ok := r.fieldErrors()["line 1"]; !ok {
		t.Errorf("a bad header is not named line 1: %s", r.raw)
	}
	e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv", token, good, csvType...).expectError(t, 422, codeValidation)
	if n := e.count(`SELECT count(*) FROM withdrawals WHERE integrator_id = $1`, in.ID); n != 2 {
		t.Fatalf("%d withdrawals, want the first batch's 2", n)
	}
}

// Maker-checker over the API: a held withdrawal and batch wait,
// reserved; the key that created them may not decide (403
// self_approval); a key without withdrawals:approve may not either (403
// forbidden); a second key approves or rejects once (then 409); v2 shows a
// held payment as PROCESSING. Every answer matches docs/openapi.yaml.
func TestApprovalOverTheAPI(t *testing.T) {
	e := newEnv(t)
	v := openapitest.New(t, e.url)
	check := func(r reply) reply {
		t.Helper()
		v.Response(t, r.req, r.status, r.header, []byte(r.raw))
		return r
	}
	ctx := context.Background()
	in, maker := e.integrator("Loja Aprova", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(1000, 0))
	threshold := money.FromReais(100, 0)
	if _, err := e.db.SetApproval(ctx, in.ID, storage.ApprovalRule{Threshold: &threshold, Expiry: storage.DefaultApprovalExpiry}); err != nil {
		t.Fatal(err)
	}
	_, checker, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeWithdrawalsApprove, storage.ScopeWithdrawalsRead}})
	if err != nil {
		t.Fatal(err)
	}
	_, reader, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeWithdrawalsRead}})
	if err != nil {
		t.Fatal(err)
	}
	small := check(e.call(http.MethodPost, "/api/v1/withdrawals", maker, payoutItem("s-1", nil)).expect(t, 201))
	if small.str("status") != "PROCESSING" {
		t.Fatalf("below the threshold: %s", small.raw)
	}
	w := check(e.call(http.MethodPost, "/api/v1/withdrawals", maker, payoutItem("s-2", map[string]string{"amount": "150.00"})).expect(t, 201))
	if w.str("status") != "AWAITING_APPROVAL" {
		t.Fatalf("above the threshold: %s", w.raw)
	}
	if got := e.wallet(in.ID); got.Reserved != 25_60+150_50 {
		t.Fatalf("reserved %s", got.Reserved)
	}
	path := "/api/v1/withdrawals/" + w.str("id")
	check(e.call(http.MethodPost, path+"/approve", maker, nil).expectError(t, http.StatusForbidden, codeSelfApproval))
	check(e.call(http.MethodPost, path+"/approve", reader.Token(), nil).expectError(t, http.StatusForbidden, codeForbidden))
	check(e.call(http.MethodPost, "/api/v1/withdrawals/batches", checker.Token(), batchBody("x", payoutItem("x-1", nil))).
		expectError(t, http.StatusForbidden, codeForbidden))
	approved := check(e.call(http.MethodPost, path+"/approve", checker.Token(), nil).expect(t, 200))
	if approved.str("status") != "PROCESSING" {
		t.Fatalf("approved: %s", approved.raw)
	}
	check(e.call(http.MethodPost, path+"/reject", checker.Token(), `{"reason": "late"}`).expectError(t, http.StatusConflict, codeNotAwaitingApproval))
	check(e.call(http.MethodPost, "/api/v1/withdrawals/s-1/approve", checker.Token(), nil).expectError(t, http.StatusConflict, codeNotAwaitingApproval))

	// A held batch (its total above the threshold), rejected.
	before := e.wallet(in.ID)
	items := make([]string, 30)
	for i := range items {
		items[i] = payoutItem(fmt.Sprintf("b-%d", i), map[string]string{"amount": "5.00"})
	}
	b := check(e.call(http.MethodPost, "/api/v1/withdrawals/batches", maker, batchBody("lote-a", items...)).expect(t, 201))
	if b.str("status") != "AWAITING_APPROVAL" || b.get("count") != "30" || b.get("total") != "165.00" || b.str("approval_expires_at") == "" {
		t.Fatalf("held batch: %s", b.raw)
	}
	check(e.call(http.MethodPost, "/api/v1/withdrawals/batches", maker, batchBody("lote-a", items...)).expect(t, 200))
	check(e.call(http.MethodPost, "/api/v1/withdrawals/batches", maker, batchBody("lote-a", items[:2]...)).expectError(t, 409, codeIdempotency))
	check(e.call(http.MethodGet, "/api/v1/withdrawals/batches/lote-a", reader.Token(), nil).expect(t, 200))
	page := check(e.call(http.MethodGet, "/api/v1/withdrawals/batches/"+b.str("id")+"/items?per_page=10", reader.Token(), nil).expect(t, 200))
	if len(page.data()) != 10 || page.data()[0]["batch_id"] != b.str("id") || page.data()[0]["status"] != "AWAITING_APPROVAL" {
		t.Fatalf("items page: %s", page.raw)
	}
	check(e.call(http.MethodPost, "/api/v1/withdrawals/batches/lote-a/approve", maker, nil).expectError(t, http.StatusForbidden, codeSelfApproval))
	check(e.call(http.MethodPost, "/api/v1/withdrawals/"+page.data()[0]["id"].(string)+"/approve", checker.Token(), nil).
		expectError(t, http.StatusConflict, codeNotAwaitingApproval))
	rejected := check(e.call(http.MethodPost, "/api/v1/withdrawals/batches/lote-a/reject", checker.Token(), `{"reason": "folha errada"}`).expect(t, 200))
	if rejected.str("status") != "REJECTED" || rejected.get("failed") != "30" || rejected.str("rejection_reason") != "rejected: folha errada" {
		t.Fatalf("rejected batch: %s", rejected.raw)
	}
	check(e.call(http.MethodPost, "/api/v1/withdrawals/batches/lote-a/approve", checker.Token(), nil).expectError(t, http.StatusConflict, codeNotAwaitingApproval))
	if after := e.wallet(in.ID); after != before {
		t.Fatalf("wallet after the rejection %+v, before the batch %+v", after, before)
	}
	check(e.call(http.MethodGet, "/api/v1/withdrawals/batches/nope", reader.Token(), nil).expectError(t, 404, codeNotFound))

	// v2: a held payment is a payment not yet sent.
	v2 := e.accessToken(maker)
	p := e.call(http.MethodPost, "/v2/pix/payment", v2, payoutItem("v2-1", map[string]string{"amount": "200.00"})).expect(t, 200)
	if p.str("status") != "PROCESSING" {
		t.Fatalf("v2 held payment: %s", p.raw)
	}
	if n := e.count(`SELECT count(*) FROM withdrawals WHERE external_id = 'v2-1' AND status = 'AWAITING_APPROVAL'`); n != 1 {
		t.Fatal("the v2 payment is not held")
	}
}

// holdAbove makes the integrator's withdrawals and batches above R$ 50.00
// wait for approval (before its key is first used, so that no cached key
// carries the rule before it).
func holdAbove50(t *testing.T, e *env, integratorID int64) {
	t.Helper()
	threshold := money.FromReais(50, 0)
	if _, err := e.db.SetApproval(context.Background(), integratorID, storage.ApprovalRule{Threshold: &threshold, Expiry: storage.DefaultApprovalExpiry}); err != nil {
		t.Fatal(err)
	}
}

// payoutPoolCalls are the batch and approval requests of the pool-of-one
// test: a batch created (and replayed), read and listed, and withdrawals
// and batches held for approval, each approved or rejected by a second
// key, twice at once (one wins, the other is 409).
func payoutPoolCalls(t *testing.T, e *env, integratorID int64, v1 string) []poolCall {
	t.Helper()
	ctx := context.Background()
	e.fund(integratorID, money.FromReais(500, 0))
	_, checker, err := e.db.CreateKey(ctx, storage.NewKey{IntegratorID: integratorID, Scopes: []string{storage.ScopeWithdrawalsApprove}})
	if err != nil {
		t.Fatal(err)
	}
	as := func(token, path, body string) func() reply {
		return func() reply { return e.call(http.MethodPost, path, token, body) }
	}
	held := func(ext string) string {
		t.Helper()
		w := e.call(http.MethodPost, "/api/v1/withdrawals", v1, payoutItem(ext, map[string]string{"amount": "60.00"})).expect(t, http.StatusCreated)
		if w.str("status") != "AWAITING_APPROVAL" {
			t.Fatalf("not held: %s", w.raw)
		}
		return w.str("id")
	}
	heldBatch := func(ext string) string {
		t.Helper()
		b := e.call(http.MethodPost, "/api/v1/withdrawals/batches", v1, batchBody(ext,
			payoutItem(ext+"-1", map[string]string{"amount": "30.00"}), payoutItem(ext+"-2", map[string]string{"amount": "30.00"}))).expect(t, http.StatusCreated)
		if b.str("status") != "AWAITING_APPROVAL" {
			t.Fatalf("not held: %s", b.raw)
		}
		return b.str("id")
	}
	small := batchBody("lote-pool", payoutItem("lote-pool-1", map[string]string{"amount": "1.00"}))
	smallCSV := "amount,key_type,key,name,tax_id,external_id\n1.00,CPF,52998224725,Fulano,52998224725,lote-csv-1\n"
	decided := []int{http.StatusOK, http.StatusConflict}
	return []poolCall{
		{"v1 batch", as(v1, "/api/v1/withdrawals/batches", small), []int{http.StatusCreated, http.StatusOK}},
		{"v1 batch csv", func() reply {
			return e.call(http.MethodPost, "/api/v1/withdrawals/batches/csv?external_id=lote-csv", v1, smallCSV, "Content-Type", "text/csv")
		}, []int{http.StatusCreated, http.StatusOK}},
		{"v1 batch get", func() reply { return e.call(http.MethodGet, "/api/v1/withdrawals/batches/lote-pool", v1, nil) }, []int{http.StatusOK, http.StatusNotFound}},
		{"v1 batch items", func() reply { return e.call(http.MethodGet, "/api/v1/withdrawals/batches/lote-pool/items", v1, nil) },
			[]int{http.StatusOK, http.StatusNotFound}},
		{"v1 withdrawal approve", as(checker.Token(), "/api/v1/withdrawals/"+held("pool-a")+"/approve", ""), decided},
		{"v1 withdrawal reject", as(checker.Token(), "/api/v1/withdrawals/"+held("pool-r")+"/reject", `{"reason": "x"}`), decided},
		{"v1 batch approve", as(checker.Token(), "/api/v1/withdrawals/batches/"+heldBatch("pool-ba")+"/approve", ""), decided},
		{"v1 batch reject", as(checker.Token(), "/api/v1/withdrawals/batches/"+heldBatch("pool-br")+"/reject", ""), decided},
	}
}
