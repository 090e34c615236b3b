package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
)

// cycleFlow is Pix Automático's cycles end to end on s, for one journey,
// with the sandbox playing the payer's bank and its clock moved a week at
// a time (the worker's scheduler counts by it in a development stack): a
// weekly recurrence of five cycles is approved; the first two are sent in
// their windows, the first paid, the second rejected (AM02, left to the
// policy), retried and paid; a week on, the third is sent and paid; a
// week later, the fourth is rejected with a code that ends it (AC05);
// the integrator cancels the recurrence, and its fifth cycle is never sent.
// Each paid cycle is credited once, through its charge; every status
// reaches the integrator once, by a verified postback.
func cycleFlow(t *testing.T, s *devStack, journey string) {
	base := sandboxToday(t, s)
	ext := "ciclos-" + journey
	p := map[string]any{"name": payer["name"], "document": payer["document"]}
	if journey == "PUSH" {
		p["bank"] = map[string]any{"ispb": "00000000", "branch": "0001", "account": "123456"}
	}
	balance := s.available()
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", map[string]any{
		"external_id": ext, "journey": journey, "payer": p, "contract": "4417", "description": "Academia semanal",
		"calendar":     map[string]any{"periodicity": "WEEKLY", "start": base.AddDays(3).String(), "count": 5},
		"amount":       map[string]any{"type": "fixed", "value": 35.00},
		"retry_policy": "THREE_IN_7_DAYS", "postbackUrl": s.receiver.URL + "/cycles"})
	if code != http.StatusCreated {
		t.Fatalf("%s: create: %d %v", journey, code, r)
	}
	id := r["id"].(string)
	s.control(http.MethodPost, "/sandbox/recurrences/"+r["provider_id"].(string)+"/approve", map[string]any{})
	s.eventually(journey+" APPROVED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/"+id, nil)
		return got["status"] == "APPROVED"
	})

	cycles := func() []map[string]any {
		_, v := s.call(http.MethodGet, "/api/v1/recurrences/"+id+"/cycles", nil)
		items, _ := v["items"].([]any)
		out := make([]map[string]any, len(items))
		for i, it := range items {
			out[i] = it.(map[string]any)
		}
		return out
	}
	cycle := func(n int, want string) map[string]any {
		t.Helper()
		var c map[string]any
		s.eventually(fmt.Sprintf("%s cycle %d %s", journey, n, want), 15*time.Second, func() bool {
			cs := cycles()
			if len(cs) <= n {
				return false
			}
			c = cs[n]
			return c["status"] == want
		})
		return c
	}
	bank := func(c map[string]any, action string, body any) {
		t.Helper()
		if code, v := s.control(http.MethodPost, "/sandbox/cycles/"+c["provider_id"].(string)+"/"+action, body); code != http.StatusOK {
			t.Fatalf("%s: %s cycle %v: %d %v", journey, action, c["n"], code, v)
		}
	}

	// The first two cycles' windows are open today: both are sent.
	c0, c1 := cycle(0, "CREATED"), cycle(1, "CREATED")
	if c0["due_date"] != base.AddDays(3).String() || fmt.Sprint(c0["amount"]) != "35.00" || c0["charge_id"] == nil {
		t.Errorf("%s: cycle 0 as sent: %v", journey, c0)
	}
	bank(c0, "accept", nil)
	bank(c0, "pay", nil)
	cycle(0, "PAID")
	bank(c1, "reject", map[string]any{"code": "AM02"})
	s.eventually(journey+" cycle 1 retried", 15*time.Second, func() bool {
		a, _ := cycles()[1]["attempts"].([]any)
		return len(a) == 2 && a[1].(map[string]any)["status"] != "REJECTED"
	})
	bank(c1, "pay", nil)
	if c := cycle(1, "PAID"); fmt.Sprint(c["retries"]) != "1" {
		t.Errorf("%s: cycle 1 paid after one retry: %v", journey, c)
	}

	setSandboxToday(t, s, base.AddDays(7))
	c2 := cycle(2, "CREATED")
	bank(c2, "accept", nil)
	bank(c2, "pay", nil)
	cycle(2, "PAID")

	setSandboxToday(t, s, base.AddDays(14))
	bank(cycle(3, "CREATED"), "reject", map[string]any{"code": "AC05"})
	if c := cycle(3, "REJECTED"); c["rejection_code"] != "AC05" || fmt.Sprint(c["retries"]) != "0" {
		t.Errorf("%s: cycle 3 rejected for good: %v", journey, c)
	}

	if code, v := s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cancel", nil); code != http.StatusAccepted {
		t.Fatalf("%s: cancel: %d %v", journey, code, v)
	}
	s.eventually(journey+" CANCELLED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/"+id, nil)
		return got["status"] == "CANCELLED"
	})
	setSandboxToday(t, s, base.AddDays(21))
	time.Sleep(time.Second) // ticks that would schedule a fifth cycle, were there one to schedule
	if n := len(cycles()); n != 4 {
		t.Errorf("%s: %d cycles, want 4", journey, n)
	}

	// Three payments, each credited once through its charge.
	var net float64
	for _, c := range cycles()[:3] {
		_, ch := s.call(http.MethodGet, "/api/v1/charges/"+c["charge_id"].(string), nil)
		if ch["status"] != "PAID" || fmt.Sprint(ch["amount"]) != "35.00" {
			t.Errorf("%s: cycle %v's charge: %v", journey, c["n"], ch)
		}
		v, _ := c["net_amount"].(json.Number).Float64()
		net += v
	}
	if got := s.available() - balance; fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", net) {
		t.Errorf("%s: the wallet grew %.2f, the cycles' net is %.2f", journey, got, net)
	}
	checkCyclePostbacks(t, s, journey, id)
}

// checkCyclePostbacks checks that the recurrence's cycles and attempts
// told each status once, and the ones the flow reached at all.
func checkCyclePostbacks(t *testing.T, s *devStack, journey, id string) {
	want := []string{"RECURRENCE APPROVED", "RECURRENCE CANCELLED", "RECURRENCE_CYCLE 0 PAID", "RECURRENCE_CYCLE 1 PAID",
		"RECURRENCE_CYCLE 2 PAID", "RECURRENCE_CYCLE 3 REJECTED", "RECURRENCE_ATTEMPT 1/0 REJECTED", "RECURRENCE_ATTEMPT 1/1 PAID",
		"RECURRENCE_ATTEMPT 3/0 REJECTED"}
	got := map[string]int{}
	s.eventually(journey+" postbacks", 10*time.Second, func() bool {
		got = map[string]int{}
		for _, p := range s.receiver.verified(t, s.webhookSecret) {
			switch {
			case p["transactionType"] == "RECURRENCE" && p["id"] == id:
				got[fmt.Sprint("RECURRENCE ", p["status"])]++
			case p["transactionType"] == "RECURRENCE_CYCLE" && p["recurrence_id"] == id:
				got[fmt.Sprint("RECURRENCE_CYCLE ", p["n"], " ", p["status"])]++
			case p["transactionType"] == "RECURRENCE_ATTEMPT" && p["recurrence_id"] == id:
				got[fmt.Sprint("RECURRENCE_ATTEMPT ", p["n"], "/", p["seq"], " ", p["status"])]++
			}
		}
		for _, w := range want {
			if got[w] == 0 {
				return false
			}
		}
		return true
	})
	for k, n := range got {
		if n != 1 {
			t.Errorf("%s: %s told %d times", journey, k, n)
		}
	}
}

// sandboxToday is the sandbox's day (its clock, which tests move).
func sandboxToday(t *testing.T, s *devStack) due.Date {
	t.Helper()
	_, v := s.control(http.MethodGet, "/sandbox/clock", nil)
	d, err := due.ParseDate(fmt.Sprint(v["today"]))
	if err != nil {
		t.Fatalf("sandbox clock: %v", v)
	}
	return d
}

func setSandboxToday(t *testing.T, s *devStack, d due.Date) {
	t.Helper()
	if code, v := s.control(http.MethodPost, "/sandbox/clock", map[string]any{"today": d.String()}); code != http.StatusOK {
		t.Fatalf("move the clock to %s: %d %v", d, code, v)
	}
}

// available is the demo integrator's available balance, in reais.
func (s *devStack) available() float64 {
	_, bal := s.call(http.MethodGet, "/api/v1/balance", nil)
	v, _ := bal["available_balance"].(json.Number).Float64()
	return v
}
