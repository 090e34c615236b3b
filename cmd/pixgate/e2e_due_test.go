package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueCase is a due-date charge of the flow: its terms relative to today in
// Brasília, and how many days from now its payer's bank pays it (the
// sandbox pays at a time the test names).
type dueCase struct {
	name  string
	terms func(today due.Date) map[string]any
	payIn int
}

// dueCases: on time (with a rebate), late (fine and interest), early
// (a dated discount). Every connector takes these terms (woovi takes no
// due date today, and interest only per calendar day).
var dueCases = []dueCase{
	{"on time", func(today due.Date) map[string]any {
		return map[string]any{"date": today.AddDays(2).String(), "rebate": map[string]any{"mode": "fixed", "value": 1.00}}
	}, 0},
	{"late", func(today due.Date) map[string]any {
		return map[string]any{"date": today.AddDays(1).String(), "days_after": 30,
			"fine":     map[string]any{"mode": "percent", "value": 2.00},
			"interest": map[string]any{"mode": "percent_per_day", "value": 0.10}}
	}, 12},
	{"early", func(today due.Date) map[string]any {
		return map[string]any{"date": today.AddDays(10).String(),
			"discount": map[string]any{"mode": "fixed_until", "dates": []any{map[string]any{"until": today.AddDays(5).String(), "value": 5.00}}}}
	}, 0},
}

// dueFlow runs due-date charges through the stack's connector: each
// created on v1 (the late one on v2) and paid at the sandbox (the late one
// twelve days after its due date), credited for exactly what its terms ask
// on the day paid (the fee on that, net in the wallet), its postback
// naming the amount paid; a payment after the last day refused by the
// payer's bank and nothing credited; one paid in part never credited; a
// due date before today refused at creation. It adds each answer's shape to
// out, for the providers to be compared.
func dueFlow(s *devStack, out map[string]map[string]string) {
	t := s.t
	today := due.Today(time.Now())
	v2 := s.v2Token(s.token)
	for _, c := range dueCases {
		body := map[string]any{"amount": 100.00, "payer": payer, "due": c.terms(today), "external_id": "due-" + strings.ReplaceAll(c.name, " ", "-"),
			"postbackUrl": s.receiver.URL + "/pix"}
		path, token, created := "/api/v1/charges", "", http.StatusCreated
		if c.name == "late" { // the v2 surface takes the same terms
			path, token, created = "/v2/pix/qrcode", v2, http.StatusOK
		}
		code, ch := s.createDue(path, token, body)
		if code != created {
			t.Fatalf("due %s: create %d %v", c.name, code, ch)
		}
		_, ch = s.call(http.MethodGet, "/api/v1/charges/"+body["external_id"].(string), nil)
		out["v1 due charge "+c.name+" created"] = shapeOf(ch)
		d, _ := ch["due"].(map[string]any)
		asked, _ := d["amount_due"].(map[string]any)
		if want := dueExpected(t, c, today, today); fmt.Sprint(asked["total"]) != want.String() {
			t.Errorf("due %s: amount_due %v, want %s", c.name, d["amount_due"], want)
		}
		payAt := time.Now().Add(time.Duration(c.payIn) * 24 * time.Hour)
		want := dueExpected(t, c, today, due.Today(payAt))
		id, pixID := ch["id"].(string), ch["pix_id"].(string)
		before := s.wallet().Available
		if code, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", map[string]any{"at": payAt.UTC().Format(time.RFC3339)}); code != http.StatusOK {
			t.Fatalf("due %s: pay %d %v", c.name, code, v)
		}
		s.eventually("due "+c.name+" PAID", 10*time.Second, func() bool { return s.status("charges", id) == "PAID" })
		_, paid := s.call(http.MethodGet, "/api/v1/charges/"+id, nil)
		out["v1 due charge "+c.name+" paid"] = shapeOf(paid)
		fee := money.Percent(15_000).Compute(want) // the stack's integrator: 1.5%
		if fmt.Sprint(paid["amount"]) != want.String() || fmt.Sprint(paid["fee"]) != fee.String() {
			t.Errorf("due %s: paid amount %v fee %v, want %s and %s", c.name, paid["amount"], paid["fee"], want, fee)
		}
		s.eventually("due "+c.name+" credited", 10*time.Second, func() bool { return s.wallet().Available-before == want-fee })
		s.eventually("due "+c.name+" postback", 10*time.Second, func() bool { return s.postbackAmount(pixID) != "" })
		if got := s.postbackAmount(pixID); got != want.String() {
			t.Errorf("due %s: postback amount %s, want %s", c.name, got, want)
		}
	}
	// The payer's bank is refused after the last day; nothing is credited.
	body := map[string]any{"amount": 100.00, "payer": payer, "external_id": "due-gone", "due": map[string]any{"date": today.AddDays(1).String(), "days_after": 1}}
	code, ch := s.call(http.MethodPost, "/api/v1/charges", body)
	if code != http.StatusCreated {
		t.Fatalf("due with a day after: %d %v", code, ch)
	}
	late := time.Now().Add(10 * 24 * time.Hour).UTC().Format(time.RFC3339) // past any weekend and holiday after it
	if code, v := s.control(http.MethodPost, "/sandbox/charges/"+ch["pix_id"].(string)+"/pay", map[string]any{"at": late}); code != http.StatusConflict {
		t.Errorf("paid after the last day: %d %v, want 409", code, v)
	}
	if st := s.status("charges", ch["id"].(string)); st != "PENDING" {
		t.Errorf("charge paid after its last day is %s", st)
	}
	// Paid in part (a payer's bank that pays less than the day asks): the
	// money is at the provider, but PixGate credits nothing the terms did
	// not ask; the charge stays PENDING for an operator.
	body["external_id"], body["due"] = "due-part", map[string]any{"date": today.AddDays(3).String()}
	code, ch = s.call(http.MethodPost, "/api/v1/charges", body)
	if code != http.StatusCreated {
		t.Fatalf("due paid in part: %d %v", code, ch)
	}
	before := s.wallet().Available
	if code, v := s.control(http.MethodPost, "/sandbox/charges/"+ch["pix_id"].(string)+"/pay", map[string]any{"amount": 40.00}); code != http.StatusOK {
		t.Fatalf("pay in part: %d %v", code, v)
	}
	s.eventually("the part payment seen", 10*time.Second, func() bool {
		return s.count(`SELECT count(*) FROM provider_events WHERE transaction_id = $1 AND processed_at IS NOT NULL`, ch["pix_id"]) > 0
	})
	if st := s.status("charges", ch["id"].(string)); st != "PENDING" || s.wallet().Available != before {
		t.Errorf("a charge paid in part is %s, the wallet moved by %s", st, s.wallet().Available-before)
	}
	body["external_id"], body["due"] = "due-past", map[string]any{"date": today.AddDays(-1).String()}
	if code, v := s.call(http.MethodPost, "/api/v1/charges", body); code != http.StatusUnprocessableEntity {
		t.Errorf("a charge past its last day: %d %v, want 422", code, v)
	}
}

// dueExpected is what case c, created today, asks on day: its terms' own
// arithmetic (docs/due-charges.md, checked there against its table of
// cases).
func dueExpected(t interface{ Fatal(...any) }, c dueCase, today, day due.Date) money.Money {
	var terms due.Terms
	raw := c.terms(today)
	b, err := jsonRoundTrip(raw, &terms)
	if err != nil {
		t.Fatal(fmt.Sprintf("%s: %v %s", c.name, err, b))
	}
	terms.Original = 10000
	terms.Normalize()
	got, err := terms.AmountOn(day)
	if err != nil {
		t.Fatal(err)
	}
	return got.Total
}

// createDue creates a charge on v1, or on v2 with token.
func (s *devStack) createDue(path, token string, body map[string]any) (int, map[string]any) {
	if token != "" {
		return s.v2(path, token, body)
	}
	return s.call(http.MethodPost, path, body)
}

// jsonRoundTrip decodes v's JSON into into, as a request's body is read.
func jsonRoundTrip(v, into any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return b, json.Unmarshal(b, into)
}

// postbackAmount is the amount the verified PAID postback of the charge
// pixID names ("" before one arrived).
func (s *devStack) postbackAmount(pixID string) string {
	for _, p := range s.receiver.verified(s.t, s.webhookSecret) {
		if p["transactionId"] == pixID && p["status"] == "PAID" {
			return fmt.Sprint(p["amount"])
		}
	}
	return ""
}
