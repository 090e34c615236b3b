package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// splitSeller is a sub-account of the stack's integrator.
type splitSeller struct {
	id    int64
	token string
}

func (s *devStack) sellerBalance(id int64) money.Money {
	s.t.Helper()
	w, err := s.db.Wallet(context.Background(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	if w.Pending != 0 || w.Blocked != 0 || w.Debt != 0 {
		s.t.Fatalf("sub-account %d holds more than available: %+v", id, w)
	}
	return w.Available + w.Reserved
}

// balancesAre checks the integrator's available balance and each
// seller's, in centavos.
func (s *devStack) balancesAre(step string, integrator money.Money, sellers []splitSeller, want ...money.Money) {
	s.t.Helper()
	got := []money.Money{s.wallet().Available}
	for _, sl := range sellers {
		got = append(got, s.sellerBalance(sl.id))
	}
	if fmt.Sprint(got) != fmt.Sprint(append([]money.Money{integrator}, want...)) {
		s.t.Fatalf("%s: balances (integrator, sellers) %v, want %v %v", step, got, integrator, want)
	}
}

// A split charge end to end: three sub-accounts (two created by the
// integrator over v1, one by the operator), a charge of 200.00 split among
// them by percent and fixed amount, paid through the sandbox: each
// sub-account credited its part in the charge's posting; a quarter
// refunded: each part taken back pro rata; 100.00 returned under MED: each
// part taken back again, the integrator paying the rest; the sub-accounts
// withdraw what they hold with their own keys; the audit is clean at every
// step.
func TestE2ESplitCharge(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	var sellers []splitSeller
	for _, name := range []string{"um", "dois"} {
		code, v := s.call(http.MethodPost, "/api/v1/sub-accounts", map[string]any{"name": "Vendedor " + name, "email": name + "@vendedor.example"})
		if code != http.StatusCreated {
			t.Fatalf("create sub-account: %d %v", code, v)
		}
		id, _ := strconv.ParseInt(v["id"].(string), 10, 64)
		sellers = append(sellers, splitSeller{id: id, token: v["credentials"].(map[string]any)["token"].(string)})
	}
	var op struct {
		ID    int64
		Token string `json:"token"`
	}
	s.pg.json(&op, "integrator", "create", "--parent", fmt.Sprint(s.integratorID), "--name", "Vendedor tres", "--email", "tres@vendedor.example")
	sellers = append(sellers, splitSeller{id: op.ID, token: op.Token})
	if code, v := s.call(http.MethodGet, "/api/v1/sub-accounts", nil); code != http.StatusOK || len(v["data"].([]any)) != 3 {
		t.Fatalf("sub-accounts: %d %v", code, v)
	}
	s.auditClean()

	// 200.00 at 1.5%: net 197.00; 25% = 49.25, 30.00, 12.5% = 24.625 → 24.62; the integrator 93.13.
	split := map[string]any{"base": "net", "recipients": []any{
		map[string]any{"sub_account": fmt.Sprint(sellers[0].id), "percent": 25},
		map[string]any{"sub_account": fmt.Sprint(sellers[1].id), "amount": 30.00},
		map[string]any{"sub_account": fmt.Sprint(sellers[2].id), "percent": "12.5"},
	}}
	id, pix := s.createCharge(200.00, map[string]any{"split": split})
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pix+"/pay", nil); c != http.StatusOK {
		t.Fatalf("pay: %d %v", c, v)
	}
	s.eventually("charge paid", 5*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	s.balancesAre("paid", 9313, sellers, 4925, 3000, 2462)
	s.auditClean()

	// A quarter refunded (50.00, fee 0.50): 12.31, 7.50 and 6.15 taken back; the integrator pays 24.54.
	code, v := s.call(http.MethodPost, "/api/v1/charges/"+id+"/refunds", map[string]any{"amount": 50})
	if code != http.StatusCreated {
		t.Fatalf("refund: %d %v", code, v)
	}
	s.eventually("refund COMPLETED", 10*time.Second, func() bool {
		_, r := s.call(http.MethodGet, "/api/v1/charges/"+id+"/refunds", nil)
		d, _ := r["data"].([]any)
		return len(d) == 1 && d[0].(map[string]any)["status"] == "COMPLETED"
	})
	s.balancesAre("refunded a quarter", 6859, sellers, 3694, 2250, 1847)
	s.auditClean()

	// 100.00 disputed: the integrator's 68.59 blocked. Agreed, 150.00 of
	// 200.00 given back in all: 24.62, 15.00 and 12.31 more taken back,
	// the integrator's blocked money and 31.41 of them pay the rest.
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pix+"/infraction", map[string]any{"amount": 100}); c != http.StatusOK {
		t.Fatalf("open infraction: %d %v", c, v)
	}
	s.eventually("the infraction blocked", 5*time.Second, func() bool { return s.wallet().Blocked == 6859 })
	s.auditClean()
	inf := s.infractions("OPEN")[0]
	if c, v := s.control(http.MethodPost, "/sandbox/infractions/"+inf["provider_id"].(string)+"/close", map[string]any{"result": "AGREED"}); c != http.StatusOK {
		t.Fatalf("close: %d %v", c, v)
	}
	s.eventually("the MED return COMPLETED", 10*time.Second, func() bool {
		return s.count(`SELECT count(*) FROM med_returns WHERE status = 'COMPLETED'`) == 1
	})
	if w := s.wallet(); w.Blocked != 0 || w.Reserved != 0 || w.Debt != 0 {
		t.Fatalf("the integrator's wallet after the MED return: %+v", w)
	}
	s.balancesAre("returned under MED", 2052, sellers, 1232, 750, 616)
	s.auditClean()

	// Each sub-account withdraws what it holds with its own key: the first
	// two pay their parent's cash-out fee (0.50), the operator's none.
	for i, sl := range sellers {
		fee := money.Money(50)
		if i == 2 {
			fee = 0
		}
		amount := s.sellerBalance(sl.id) - fee
		code, v := doJSON(t, http.MethodPost, s.api+"/api/v1/withdrawals", "Bearer "+sl.token,
			map[string]any{"amount": json.Number(amount.String()), "creditParty": creditParty(fmt.Sprintf("vendedor%d@example.com", i))})
		if code != http.StatusCreated {
			t.Fatalf("sub-account %d withdraws %s: %d %v", sl.id, amount, code, v)
		}
		s.eventually("withdrawal COMPLETED", 10*time.Second, func() bool {
			_, w := doJSON(t, http.MethodGet, s.api+"/api/v1/withdrawals/"+v["id"].(string), "Bearer "+sl.token, nil)
			return w["status"] == "COMPLETED"
		})
	}
	s.balancesAre("withdrawn", 2052, sellers, 0, 0, 0)
	// A sub-account's key reads nothing of its parent's.
	if code, _ := doJSON(t, http.MethodGet, s.api+"/api/v1/charges/"+id, "Bearer "+sellers[0].token, nil); code != http.StatusNotFound {
		t.Fatalf("a sub-account reads its parent's charge: %d", code)
	}
	s.auditClean()
}
