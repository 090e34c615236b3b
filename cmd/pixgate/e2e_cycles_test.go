package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage/money/due"
)

// cycleFlow is Pix Automático's cycles end to end on s, for one journey,
// with the sandbox playing the payer's bank and its clock moved as the
// calendar goes (the worker's scheduler counts by it in a development
// stack): a weekly recurrence of R$ 35.00 is approved (with the first
// payment, for the journey that has one: cycle 0, paid with the consent);
// of its next four cycles, each sent in its window, the first is paid, the
// second rejected (AM02, left to the policy), retried and paid, the third
// paid, the fourth rejected with a code that ends it (AC05); then the
// integrator cancels the recurrence, and its next cycle is never sent.
// Each payment is credited once; every status reaches the integrator once,
// by a verified postback. QR_WITH_PAYMENT starts today by the API's clock,
// so it runs before any flow moves the sandbox's. The answers are
// returned, for a comparison across connectors.
func cycleFlow(t *testing.T, s *devStack, journey string, cancels bool) map[string]map[string]string {
	f := newFlow(t, s, journey)
	cs := [4]int{f.first, f.first + 1, f.first + 2, f.first + 3}
	f.bank(f.cycle(cs[0], "CREATED"), "accept", nil)
	f.bank(f.cycle(cs[0], "ACTIVE"), "pay", nil)
	f.cycle(cs[0], "PAID")
	f.bank(f.cycle(cs[1], "CREATED"), "reject", map[string]any{"code": "AM02"})
	s.eventually(journey+" cycle retried", 15*time.Second, func() bool {
		a, _ := f.cycles()[cs[1]-f.first]["attempts"].([]any)
		return len(a) == 2 && a[1].(map[string]any)["status"] != "REJECTED"
	})
	f.bank(f.cycle(cs[1], "CREATED"), "pay", nil)
	if c := f.cycle(cs[1], "PAID"); fmt.Sprint(c["retries"]) != "1" {
		t.Errorf("%s: cycle %d paid after one retry: %v", journey, cs[1], c)
	}
	f.bank(f.cycle(cs[2], "CREATED"), "accept", nil)
	f.bank(f.cycle(cs[2], "ACTIVE"), "pay", nil)
	f.cycle(cs[2], "PAID")
	f.bank(f.cycle(cs[3], "CREATED"), "reject", map[string]any{"code": "AC05"})
	if c := f.cycle(cs[3], "REJECTED"); c["rejection_code"] != "AC05" || fmt.Sprint(c["retries"]) != "0" {
		t.Errorf("%s: cycle %d rejected for good: %v", journey, cs[3], c)
	}

	f.cancelSent(cs[3]+1, cancels)
	if code, v := s.call(http.MethodPost, "/api/v1/recurrences/"+f.id+"/cancel", nil); code != http.StatusAccepted {
		t.Fatalf("%s: cancel: %d %v", journey, code, v)
	}
	s.eventually(journey+" CANCELLED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/"+f.id, nil)
		return got["status"] == "CANCELLED"
	})
	f.moveTo(cs[3] + 2)
	time.Sleep(time.Second) // ticks that would schedule the next cycle
	if n := len(f.cycles()); n != 5 {
		t.Errorf("%s: %d cycles, want 5", journey, n)
	}
	f.checkMoney(cs[:3])
	checkCyclePostbacks(t, s, journey, f.id, cs)
	for _, path := range []string{"", "/cycles", fmt.Sprint("/cycles/", cs[1])} {
		s.conforms("/api/v1/recurrences/" + f.id + path)
	}
	recurrencePostbacksConform(t, s)
	_, rec := s.call(http.MethodGet, "/api/v1/recurrences/"+f.id, nil)
	cycles := f.cycles()
	return map[string]map[string]string{"recurrence": shapeOf(rec), "cycle paid": shapeOf(cycles[0]),
		"cycle paid after a retry": shapeOf(cycles[1]), "cycle rejected": shapeOf(cycles[3])}
}

// recurrencePostbacksConform checks every recurrence, cycle and attempt
// postback received against its callback in docs/openapi.yaml.
func recurrencePostbacksConform(t *testing.T, s *devStack) {
	doc := openapitest.Load(t)
	callbacks := map[string]string{"RECURRENCE": "recurrence", "RECURRENCE_CYCLE": "recurrenceCycle", "RECURRENCE_ATTEMPT": "recurrenceAttempt"}
	for _, d := range s.receiver.deliveries() {
		var v struct {
			RequestBody struct {
				TransactionType string `json:"transactionType"`
			} `json:"requestBody"`
		}
		if json.Unmarshal(d.body, &v) == nil && callbacks[v.RequestBody.TransactionType] != "" {
			openapitest.Webhook(t, doc, callbacks[v.RequestBody.TransactionType], d.body)
		}
	}
}

// flow is one recurrence of cycleFlow: its id, its calendar's start, and
// the first cycle PixGate schedules (1 when cycle 0 is the first payment).
type flow struct {
	t             *testing.T
	s             *devStack
	journey, id   string
	start         due.Date
	first         int
	balance, paid float64
}

// newFlow creates and approves the recurrence.
func newFlow(t *testing.T, s *devStack, journey string) *flow {
	f := &flow{t: t, s: s, journey: journey, balance: s.available()}
	base := sandboxToday(t, s)
	f.start = base.AddDays(3)
	body := map[string]any{"external_id": "ciclos-" + journey, "journey": journey, "contract": "4417", "description": "Academia semanal",
		"payer": map[string]any{"name": payer["name"], "document": payer["document"]}, "amount": map[string]any{"type": "fixed", "value": 35.00},
		"retry_policy": "THREE_IN_7_DAYS", "postbackUrl": s.receiver.URL + "/cycles"}
	switch journey {
	case "PUSH":
		body["payer"].(map[string]any)["bank"] = map[string]any{"ispb": "00000000", "branch": "0001", "account": "123456"}
	case "QR_WITH_PAYMENT":
		f.start, f.first = base, 1
		body["first_payment"] = map[string]any{"amount": 35.00}
	}
	body["calendar"] = map[string]any{"periodicity": "WEEKLY", "start": f.start.String(), "count": f.first + 6}
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", body)
	if code != http.StatusCreated {
		t.Fatalf("%s: create: %d %v", journey, code, r)
	}
	f.id = r["id"].(string)
	s.control(http.MethodPost, "/sandbox/recurrences/"+r["provider_id"].(string)+"/approve", map[string]any{})
	s.eventually(journey+" APPROVED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/"+f.id, nil)
		return got["status"] == "APPROVED"
	})
	if f.first == 1 { // the first payment, paid with the consent, as any charge
		fc, _ := r["first_charge"].(map[string]any)
		if fc == nil || r["qrcode"] == nil {
			t.Fatalf("%s: no first charge or QR Code: %v", journey, r)
		}
		s.eventually(journey+" first payment PAID", 15*time.Second, func() bool {
			_, ch := s.call(http.MethodGet, "/api/v1/charges/"+fc["id"].(string), nil)
			if ch["status"] != "PAID" {
				return false
			}
			v, _ := ch["net_amount"].(json.Number).Float64()
			f.paid += v
			return true
		})
	}
	return f
}

func (f *flow) cycles() []map[string]any {
	_, v := f.s.call(http.MethodGet, "/api/v1/recurrences/"+f.id+"/cycles", nil)
	items, _ := v["items"].([]any)
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = it.(map[string]any)
	}
	return out
}

// moveTo moves the sandbox's clock to cycle n's send day (its window's
// first day), unless the clock is past it.
func (f *flow) moveTo(n int) {
	if send := f.start.AddDays(7*n - 10); send.After(sandboxToday(f.t, f.s)) {
		setSandboxToday(f.t, f.s, send)
	}
}

// cycle waits for cycle n to be want (moving the clock to its send day).
func (f *flow) cycle(n int, want string) map[string]any {
	f.t.Helper()
	f.moveTo(n)
	var c map[string]any
	f.s.eventually(fmt.Sprintf("%s cycle %d %s", f.journey, n, want), 15*time.Second, func() bool {
		for _, x := range f.cycles() {
			if fmt.Sprint(x["n"]) == fmt.Sprint(n) {
				c = x
				return c["status"] == want
			}
		}
		return false
	})
	if c["due_date"] != f.start.AddDays(7*n).String() || fmt.Sprint(c["amount"]) != "35.00" || c["charge_id"] == nil {
		f.t.Errorf("%s: cycle %d: %v", f.journey, n, c)
	}
	return c
}

// cancelSent: the integrator cancels cycle n once sent: at its provider
// (202, then CANCELLED by INTEGRATOR as the provider reports it), where
// the provider cancels cycles (not woovi: 501, and the cycle stays).
func (f *flow) cancelSent(n int, cancels bool) {
	f.t.Helper()
	f.cycle(n, "CREATED")
	code, v := f.s.call(http.MethodPost, fmt.Sprint("/api/v1/recurrences/", f.id, "/cycles/", n, "/cancel"), nil)
	if !cancels {
		if code != http.StatusNotImplemented {
			f.t.Errorf("%s: cancel cycle %d where the provider cannot: %d %v", f.journey, n, code, v)
		}
		return
	}
	if code != http.StatusAccepted {
		f.t.Fatalf("%s: cancel cycle %d: %d %v", f.journey, n, code, v)
	}
	if c := f.cycle(n, "CANCELLED"); c["cancelled_by"] != "INTEGRATOR" {
		f.t.Errorf("%s: cycle %d cancelled: %v", f.journey, n, c)
	}
}

// bank is the payer's bank acting on a cycle.
func (f *flow) bank(c map[string]any, action string, body any) {
	f.t.Helper()
	if code, v := f.s.control(http.MethodPost, "/sandbox/cycles/"+c["provider_id"].(string)+"/"+action, body); code != http.StatusOK {
		f.t.Fatalf("%s: %s cycle %v: %d %v", f.journey, action, c["n"], code, v)
	}
}

// checkMoney: each paid cycle's charge is PAID, and the wallet grew by
// their net (and the first payment's) exactly.
func (f *flow) checkMoney(paid []int) {
	net := f.paid
	for _, c := range f.cycles() {
		if c["status"] != "PAID" {
			continue
		}
		_, ch := f.s.call(http.MethodGet, "/api/v1/charges/"+c["charge_id"].(string), nil)
		if ch["status"] != "PAID" || fmt.Sprint(ch["amount"]) != "35.00" {
			f.t.Errorf("%s: cycle %v's charge: %v", f.journey, c["n"], ch)
		}
		v, _ := c["net_amount"].(json.Number).Float64()
		net += v
	}
	if got := f.s.available() - f.balance; fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", net) || net < float64(len(paid))*34 {
		f.t.Errorf("%s: the wallet grew %.2f, the payments' net is %.2f", f.journey, got, net)
	}
}

// checkCyclePostbacks checks that the recurrence's cycles and attempts
// told each status once, and the ones the flow reached at all.
func checkCyclePostbacks(t *testing.T, s *devStack, journey, id string, cs [4]int) {
	want := []string{"RECURRENCE APPROVED", "RECURRENCE CANCELLED", fmt.Sprint("RECURRENCE_CYCLE ", cs[0], " PAID"),
		fmt.Sprint("RECURRENCE_CYCLE ", cs[1], " PAID"), fmt.Sprint("RECURRENCE_CYCLE ", cs[2], " PAID"),
		fmt.Sprint("RECURRENCE_CYCLE ", cs[3], " REJECTED"), fmt.Sprint("RECURRENCE_ATTEMPT ", cs[1], "/0 REJECTED"),
		fmt.Sprint("RECURRENCE_ATTEMPT ", cs[1], "/1 PAID"), fmt.Sprint("RECURRENCE_ATTEMPT ", cs[3], "/0 REJECTED")}
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

// variableFlow: a variable recurrence's cycle is charged at the amount the
// integrator sets for it (not below the floor), sent in its window, paid
// and credited once; once sent, its amount is settled. It starts from the
// API's today, so it runs before any flow moves the sandbox's clock.
func variableFlow(t *testing.T, s *devStack) {
	start := sandboxToday(t, s).AddDays(6)
	balance := s.available()
	code, r := s.call(http.MethodPost, "/api/v1/recurrences", map[string]any{"external_id": "variavel", "journey": "QR",
		"payer": map[string]any{"name": payer["name"], "document": payer["document"]}, "contract": "4417",
		"calendar":     map[string]any{"periodicity": "WEEKLY", "start": start.String(), "count": 3},
		"amount":       map[string]any{"type": "variable", "floor": 20.00},
		"retry_policy": "NONE", "postbackUrl": s.receiver.URL + "/cycles"})
	if code != http.StatusCreated {
		t.Fatalf("variable: create: %d %v", code, r)
	}
	id := r["id"].(string)
	s.control(http.MethodPost, "/sandbox/recurrences/"+r["provider_id"].(string)+"/approve", map[string]any{"payerMax": 50.00})
	s.eventually("variable APPROVED", 10*time.Second, func() bool {
		_, got := s.call(http.MethodGet, "/api/v1/recurrences/"+id, nil)
		return got["status"] == "APPROVED"
	})
	if code, v := s.call(http.MethodPut, "/api/v1/recurrences/"+id+"/cycles/1", map[string]any{"amount": 19.99}); code != http.StatusUnprocessableEntity {
		t.Errorf("variable: below the floor: %d %v", code, v)
	}
	if code, v := s.call(http.MethodPut, "/api/v1/recurrences/"+id+"/cycles/0", map[string]any{"amount": 42.50}); code != http.StatusOK ||
		v["status"] != "SCHEDULED" || fmt.Sprint(v["amount"]) != "42.50" {
		t.Fatalf("variable: set cycle 0: %d %v", code, v)
	}
	var c map[string]any
	s.eventually("variable cycle 0 sent", 15*time.Second, func() bool {
		_, c = s.call(http.MethodGet, "/api/v1/recurrences/"+id+"/cycles/0", nil)
		return c["status"] == "CREATED"
	})
	if code, v := s.call(http.MethodPut, "/api/v1/recurrences/"+id+"/cycles/0", map[string]any{"amount": 45.00}); code != http.StatusUnprocessableEntity {
		t.Errorf("variable: a sent cycle's amount changed: %d %v", code, v)
	}
	if code, v := s.control(http.MethodPost, "/sandbox/cycles/"+c["provider_id"].(string)+"/pay", nil); code != http.StatusOK {
		t.Fatalf("variable: pay: %d %v", code, v)
	}
	s.eventually("variable cycle 0 PAID", 15*time.Second, func() bool {
		_, c = s.call(http.MethodGet, "/api/v1/recurrences/"+id+"/cycles/0", nil)
		return c["status"] == "PAID"
	})
	net, _ := c["net_amount"].(json.Number).Float64()
	if got := s.available() - balance; fmt.Sprintf("%.2f", got) != fmt.Sprintf("%.2f", net) || net < 41 {
		t.Errorf("variable: the wallet grew %.2f, the cycle's net is %.2f", got, net)
	}
	// A cycle not yet sent is cancelled here, at once, and never sent.
	s.call(http.MethodPut, "/api/v1/recurrences/"+id+"/cycles/1", map[string]any{"amount": 30.00})
	if code, v := s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cycles/1/cancel", nil); code != http.StatusOK ||
		v["status"] != "CANCELLED" || v["cancelled_by"] != "INTEGRATOR" {
		t.Errorf("variable: cancel a scheduled cycle: %d %v", code, v)
	}
	if code, v := s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cycles/0/cancel", nil); code != http.StatusUnprocessableEntity {
		t.Errorf("variable: cancel a paid cycle: %d %v", code, v)
	}
	s.call(http.MethodPost, "/api/v1/recurrences/"+id+"/cancel", nil)
}
