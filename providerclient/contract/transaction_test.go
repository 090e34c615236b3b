package contract_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

func TestDecodeTransaction(t *testing.T) {
	tests := []struct {
		name string
		body string
		want contract.Transaction
	}{
		{"wrapped notification", `{"requestBody":{"transactionType":"RECEIVEPIX","transactionId":"abc","external_id":"chg-1","amount":15.00,"paymentType":"PIX","status":"PAID","dateApproval":"2026-03-01 10:20:30","creditParty":{"name":"F"}}}`,
			contract.Transaction{TransactionType: "RECEIVEPIX", TransactionID: "abc", ExternalID: "chg-1", Amount: 1500, PaymentType: "PIX", Status: "PAID",
				DateApproval: "2026-03-01 10:20:30", CreditParty: &contract.Party{Name: "F"}}},
		{"unwrapped", `{"transactionType":"PAYMENT","transactionId":"p1","amount":"10.5","status":"completed","statusCode":{"statusId":"1","description":"ok"},"endToEndId":"E1"}`,
			contract.Transaction{TransactionType: "PAYMENT", TransactionID: "p1", Amount: 1050, Status: "COMPLETED", EndToEndID: "E1",
				StatusCode: &contract.StatusCode{StatusID: 1, Description: "ok"}}},
		{"requestBody wins", `{"status":"PENDING","transactionId":"outer","requestBody":{"status":"PAID"}}`,
			contract.Transaction{TransactionID: "outer", Status: "PAID"}},
		{"refund", `{"requestBody":{"transactionType":"REFUND","transactionId":"r1","pix_id":"c1","amount":5,"status":"FAILED","statusCode":{"statusId":3,"description":"no"}}}`,
			contract.Transaction{TransactionType: "REFUND", TransactionID: "r1", PixID: "c1", Amount: 500, Status: "FAILED",
				StatusCode: &contract.StatusCode{StatusID: 3, Description: "no"}}},
		{"failure reason", `{"requestBody":{"transactionType":"PAYMENT","transactionId":"p2","amount":1,"status":"FAILED","failureReason":"key not found"}}`,
			contract.Transaction{TransactionType: "PAYMENT", TransactionID: "p2", Amount: 100, Status: "FAILED", FailureReason: "key not found"}},
		{"a member of another type is skipped", `{"requestBody":{"transactionId":"x","status":"PAID","amount":1,"creditParty":{"taxId":52998224725},"debitParty":"bank"}}`,
			contract.Transaction{TransactionID: "x", Status: "PAID", Amount: 100, CreditParty: &contract.Party{}, DebitParty: &contract.Party{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := contract.DecodeTransaction([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			if string(g) != string(w) {
				t.Fatalf("got  %s\nwant %s", g, w)
			}
		})
	}
	for _, bad := range []string{`{`, `[]`, `{"transactionId":"x"}`, `{"status":"PAID","amount":1.001}`, `{"status":"PAID","amount":"abc"}`} {
		if _, err := contract.DecodeTransaction([]byte(bad)); err == nil {
			t.Fatalf("DecodeTransaction(%s) succeeded", bad)
		}
	}
}

func TestDates(t *testing.T) {
	at := time.Date(2026, 3, 1, 13, 20, 30, 0, time.UTC)
	if got := contract.FormatDate(at); got != "2026-03-01 10:20:30" {
		t.Fatalf("FormatDate = %q, want Brasília time", got)
	}
	if contract.FormatDate(time.Time{}) != "" || contract.FormatDatePtr(nil) != "" {
		t.Fatal("an absent date must render empty, to be left out")
	}
	for _, s := range []string{"2026-03-01 10:20:30", "2026-03-01T13:20:30Z", "2026-03-01T10:20:30-03:00"} {
		if got := contract.ParseDate(s); !got.Equal(at) {
			t.Fatalf("ParseDate(%q) = %v, want %v", s, got, at)
		}
	}
	tx := contract.Transaction{DateApproval: "2026-03-01 10:20:30"}
	if !tx.ApprovedAt().Equal(at) || !(contract.Transaction{DateApproval: "yesterday"}).ApprovedAt().IsZero() {
		t.Fatal("ApprovedAt")
	}
}

// What PixGate writes leaves absent values out: the family's parsers refuse
// null where they expect a string.
func TestAbsentFieldsAreLeftOut(t *testing.T) {
	b, _ := json.Marshal(contract.Envelope[contract.Transaction]{RequestBody: contract.Transaction{
		TransactionType: contract.TypeReceivePix, Amount: money.FromReais(15, 0), Status: contract.StatusPaid,
		CreditParty: &contract.Party{Name: "Fulano"}, DebitParty: &contract.Party{},
	}})
	want := `{"requestBody":{"transactionType":"RECEIVEPIX","amount":15.00,"status":"PAID","creditParty":{"name":"Fulano"},"debitParty":{}}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

func TestConsultRequestID(t *testing.T) {
	for body, want := range map[string]string{`{"pix_id":"a"}`: "a", `{"pix_Id":"b"}`: "b", `{"pix_id":"a","pix_Id":"b"}`: "a", `{}`: ""} {
		var r contract.ConsultRequest
		if err := json.Unmarshal([]byte(body), &r); err != nil || r.ID() != want {
			t.Fatalf("%s: ID() = %q, %v; want %q", body, r.ID(), err, want)
		}
	}
}
