package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

func TestGetWithdrawal(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saque Dono", money.Percent(0), money.Fixed(50))
	_, otherToken := e.integrator("Loja Saque Alheio", money.Percent(0), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	created := e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, 201)

	for _, ref := range []string{created.str("id"), "saque-1"} {
		if got := e.call(http.MethodGet, "/api/v1/withdrawals/"+ref, token, nil).expect(t, 200); got.raw != created.raw {
			t.Fatalf("GET %s:\n%s\nwant\n%s", ref, got.raw, created.raw)
		}
		e.call(http.MethodGet, "/api/v1/withdrawals/"+ref, otherToken, nil).expectError(t, 404, codeNotFound)
	}
	e.call(http.MethodGet, "/api/v1/withdrawals/saque-2", token, nil).expectError(t, 404, codeNotFound)
}

func TestListWithdrawals(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Saques", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, money.FromReais(100, 0))
	var ids []string
	for i := range 5 {
		r := e.call(http.MethodPost, "/api/v1/withdrawals", token,
			validWithdrawal(map[string]string{"amount": "1.00", "external_id": fmt.Sprintf(`"s-%d"`, i)})).expect(t, 201)
		ids = append(ids, r.str("id"))
	}
	// The provider refused the second one (as the worker would record it).
	err := e.db.InTx(context.Background(), func(tx *storage.Tx) error {
		_, _, err := tx.FailTransfer(context.Background(), storage.KindWithdrawal, uuid.MustParse(ids[1]), storage.Failure{Reason: "key not found"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	p1 := e.call(http.MethodGet, "/api/v1/withdrawals?per_page=2&status=processing", token, nil).expect(t, 200)
	p2 := e.call(http.MethodGet, "/api/v1/withdrawals?per_page=2&status=PROCESSING&cursor="+p1.str("meta.next_cursor"), token, nil).expect(t, 200)
	var got []string
	for _, r := range []reply{p1, p2} {
		for _, item := range r.data() {
			got = append(got, item["id"].(string))
		}
	}
	if want := []string{ids[4], ids[3], ids[2], ids[0]}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("PROCESSING pages = %v, want %v", got, want)
	}
	if p2.get("meta.next_cursor") != nil {
		t.Fatalf("last page has a cursor: %s", p2.raw)
	}
	failed := e.call(http.MethodGet, "/api/v1/withdrawals?status=FAILED", token, nil).expect(t, 200)
	if d := failed.data(); len(d) != 1 || d[0]["id"] != ids[1] || d[0]["failure_reason"] != "key not found" || d[0]["finished_at"] == nil {
		t.Fatalf("FAILED: %s", failed.raw)
	}
	e.call(http.MethodGet, "/api/v1/withdrawals?status=PENDING", token, nil).expectError(t, 422, codeValidation)
}
