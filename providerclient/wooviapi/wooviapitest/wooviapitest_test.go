package wooviapitest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// A request is checked against Woovi's document field by field: a
// due-date charge's fields are Woovi's and pass, a field the document
// does not name fails, and so does a value outside the document's
// bounds (daysActive is at least 1).
func TestRequestBodiesAreClosed(t *testing.T) {
	v, err := New("http://woovi.test")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, body string
		ok         bool
	}{
		{"a charge", `{"correlationID":"a","value":100,"comment":"x","expiresIn":3600,"customer":{"name":"N","taxID":"52998224725"}}`, true},
		{"a due-date charge", `{"correlationID":"a","value":100,"type":"OVERDUE","daysForDueDate":5,"daysAfterDueDate":10,
			"customer":{"name":"N","taxID":"52998224725"},"fines":{"value":200,"type":"PERCENTAGE"},"interests":{"value":10,"type":"PERCENTAGE"},
			"discountSettings":{"modality":"FIXED_VALUE_UNTIL_SPECIFIED_DATE","discountFixedDate":[{"daysActive":2,"value":50}]}}`, true},
		{"a field of no one's", `{"correlationID":"a","value":100,"dueDays":5}`, false},
		{"a customer's field of no one's", `{"correlationID":"a","value":100,"customer":{"name":"N","taxID":"52998224725","document":"52998224725"}}`, false},
		{"daysActive 0", `{"correlationID":"a","value":100,"type":"OVERDUE","daysForDueDate":5,
			"discountSettings":{"modality":"FIXED_VALUE_UNTIL_SPECIFIED_DATE","discountFixedDate":[{"daysActive":0,"value":50}]}}`, false},
		{"an unknown modality", `{"correlationID":"a","value":100,"type":"OVERDUE","daysForDueDate":5,
			"discountSettings":{"modality":"FIXED_VALUE_FOREVER","value":5}}`, false},
	} {
		req, _ := http.NewRequest(http.MethodPost, "http://woovi.test/api/v1/charge", strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		if err := v.Request(req, []byte(c.body)); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.name, err, c.ok)
		}
	}
}

// A Pix Automático's subscription is checked as any request, with the
// document's two corrections: QUARTERLY is a frequency, and an answer may
// say a subscription is INACTIVE; anything else the document does not
// name still fails.
func TestSubscriptions(t *testing.T) {
	v, err := New("http://woovi.test")
	if err != nil {
		t.Fatal(err)
	}
	const sub = `{"correlationID":"a","type":"PIX_RECURRING","value":3500,"name":"Plano","comment":"4417",
		"customer":{"name":"N","taxID":"52998224725","email":"n@example.com"},"frequency":%q,
		"dayGenerateCharge":"2026-03-10T00:00:00.000Z","installmentCount":4,
		"pixRecurringOptions":{"journey":"ONLY_RECURRENCY","retryPolicy":"THREE_RETRIES_7_DAYS","minimumValue":1000}%s}`
	for _, c := range []struct {
		name, frequency, extra string
		ok                     bool
	}{
		{"weekly", "WEEKLY", "", true},
		{"quarterly", "QUARTERLY", "", true},
		{"bimonthly", "BIMONTHLY", "", false},
		{"a field of no one's", "MONTHLY", `,"consentExpiresAt":"2026-03-09"`, false},
	} {
		body := fmt.Sprintf(sub, c.frequency, c.extra)
		req, _ := http.NewRequest(http.MethodPost, "http://woovi.test/api/v1/subscriptions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if err := v.Request(req, []byte(body)); (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok %v", c.name, err, c.ok)
		}
	}
	for status, ok := range map[string]bool{"ACTIVE": true, "INACTIVE": true, "CANCELED": false} {
		body := `{"subscription":{"globalID":"g","correlationID":"a","value":3500,"status":"` + status +
			`","pixRecurring":{"status":"CANCELED"}}}`
		req, _ := http.NewRequest(http.MethodGet, "http://woovi.test/api/v1/subscriptions/g", nil)
		h := http.Header{"Content-Type": {"application/json"}}
		if err := v.Response(req, http.StatusOK, h, []byte(body)); (err == nil) != ok {
			t.Errorf("a subscription %s: %v, want ok %v", status, err, ok)
		}
	}
}
