package wooviapitest

import (
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
