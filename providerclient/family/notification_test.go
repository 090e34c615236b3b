package family

import (
	"errors"
	"testing"
)

func TestParseNotification(t *testing.T) {
	good := map[string]Notification{
		`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "abc", "status": "PAID", "amount": 1e-100000}}`: {"RECEIVEPIX", "abc", "PAID"},
		`{"transactionType": "payment", "transactionId": "p1", "status": " completed "}`:                                    {"PAYMENT", "p1", "COMPLETED"},
		// requestBody wins field by field; the top level fills the gaps.
		`{"status": "FAILED", "transactionId": "outer", "requestBody": {"transactionType": "REFUND", "transactionId": "inner"}}`:    {"REFUND", "inner", "FAILED"},
		`{"transactionType": "REFUND", "transactionId": 42, "status": "COMPLETED", "requestBody": null}`:                            {"REFUND", "42", "COMPLETED"},
		"{\"transactionType\": \"PAYMENT\", \"transactionId\": \"p\", \"status\": \"PAID\", \"name\": \"Jos\xe9 \\u0000 \\ud800\"}": {"PAYMENT", "p", "PAID"},
	}
	for body, want := range good {
		got, err := ParseNotification([]byte(body))
		if err != nil || got != want {
			t.Errorf("ParseNotification(%.50q) = %+v, %v; want %+v", body, got, err, want)
		}
	}
	bad := map[string]string{
		``:                              "",
		`[]`:                            "",
		`{"transactionType": "PAYMENT"`: "",
		`{"transactionType": "PAYMENT", "transactionId": "p1"}`:                                              "status",
		`{"transactionType": "PAYMENT", "transactionId": "  ", "status": "PAID"}`:                            "transactionId",
		`{"transactionType": "PAYMENT", "transactionId": {}, "status": "PAID"}`:                              "transactionId",
		`{"transactionType": "PAYMENT", "transactionId": "a b", "status": "PAID"}`:                           "transactionId",
		`{"transactionType": "PAYMENT", "transactionId": "a\u0000", "status": "PAID"}`:                       "transactionId",
		`{"transactionType": "PAYMENT", "transactionId": "a\ud800", "status": "PAID"}`:                       "transactionId",
		"{\"transactionType\": \"PAYMENT\", \"transactionId\": \"a\xe9\", \"status\": \"PAID\"}":             "transactionId",
		`{"transactionType": "PAYMENTPAYMENTPAYMENTPAYMENTPAYMENT", "transactionId": "a", "status": "PAID"}`: "transactionType",
		`{"requestBody": [], "transactionType": "PAYMENT", "transactionId": "a", "status": "PAID"}`:          "requestBody",
	}
	for body, field := range bad {
		_, err := ParseNotification([]byte(body))
		var ne *NotificationError
		if !errors.As(err, &ne) || ne.Field != field {
			t.Errorf("ParseNotification(%.60q) = %v; want an error about %q", body, err, field)
		}
	}
}
