package providerclient_test

import (
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

func TestDecodeTransaction(t *testing.T) {
	tests := []struct {
		name string
		body string
		want providerclient.Transaction
	}{
		{"wrapped notification", `{"requestBody":{"transactionType":"RECEIVEPIX","transactionId":"abc","external_id":"chg-1","amount":15.00,"paymentType":"PIX","status":"PAID","dateApproval":"2026-03-01 10:20:30","creditParty":{"name":"F"}}}`,
			providerclient.Transaction{TransactionType: "RECEIVEPIX", TransactionID: "abc", ExternalID: "chg-1", Amount: 1500, Status: "PAID",
				DateApproval: "2026-03-01 10:20:30", ApprovedAt: time.Date(2026, 3, 1, 13, 20, 30, 0, time.UTC)}},
		{"unwrapped", `{"transactionType":"PAYMENT","transactionId":"p1","amount":"10.5","status":"completed","statusCode":{"statusId":"1","description":"ok"},"endToEndId":"E1"}`,
			providerclient.Transaction{TransactionType: "PAYMENT", TransactionID: "p1", Amount: 1050, Status: "COMPLETED", EndToEndID: "E1",
				StatusCode: &providerclient.StatusCode{StatusID: 1, Description: "ok"}}},
		{"requestBody wins", `{"status":"PENDING","transactionId":"outer","requestBody":{"status":"PAID"}}`,
			providerclient.Transaction{TransactionID: "outer", Status: "PAID"}},
		{"refund", `{"requestBody":{"transactionType":"REFUND","transactionId":"r1","pix_id":"c1","amount":5,"status":"FAILED","statusCode":{"statusId":3,"description":"no"}}}`,
			providerclient.Transaction{TransactionType: "REFUND", TransactionID: "r1", PixID: "c1", Amount: 500, Status: "FAILED",
				StatusCode: &providerclient.StatusCode{StatusID: 3, Description: "no"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := providerclient.DecodeTransaction([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if got.StatusCode != nil && tt.want.StatusCode != nil && *got.StatusCode == *tt.want.StatusCode {
				got.StatusCode, tt.want.StatusCode = nil, nil
			}
			if !got.ApprovedAt.Equal(tt.want.ApprovedAt) {
				t.Fatalf("ApprovedAt %v, want %v", got.ApprovedAt, tt.want.ApprovedAt)
			}
			got.ApprovedAt, tt.want.ApprovedAt = time.Time{}, time.Time{}
			if *got != tt.want {
				t.Fatalf("got %+v\nwant %+v", *got, tt.want)
			}
		})
	}
	for _, bad := range []string{`{`, `{"transactionId":"x"}`, `{"status":"PAID","amount":1.001}`, `{"status":"PAID","amount":"abc"}`} {
		if _, err := providerclient.DecodeTransaction([]byte(bad)); err == nil {
			t.Fatalf("DecodeTransaction(%s) succeeded", bad)
		}
	}
}
