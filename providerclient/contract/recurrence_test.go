package contract

import "testing"

// A recurrence is read wrapped or not, requestBody winning member by
// member, type and status uppercased; a body without a status, or with an
// amount of the wrong type, is refused.
func TestDecodeRecurrence(t *testing.T) {
	good := map[string]Recurrence{
		`{"requestBody": {"transactionType": "recurrence", "transactionId": "r1", "status": " approved ", "payerMax": 50.5}}`: {
			TransactionType: TypeRecurrence, TransactionID: "r1", Status: "APPROVED", PayerMax: 5050},
		`{"transactionType": "RECURRENCE", "transactionId": "outer", "external_id": "rec-1", "status": "CREATED",
		  "requestBody": {"transactionId": "inner", "journey": "QR", "payer": {"name": "F", "document": "1"}}}`: {
			TransactionType: TypeRecurrence, TransactionID: "inner", ExternalID: "rec-1", Status: "CREATED",
			RecurrenceTerms: RecurrenceTerms{Journey: "QR", Payer: RecurrencePayer{Name: "F", Document: "1"}}},
	}
	for body, want := range good {
		got, err := DecodeRecurrence([]byte(body))
		if err != nil || got != want {
			t.Errorf("DecodeRecurrence(%.40q) = %+v, %v; want %+v", body, got, err, want)
		}
	}
	for _, body := range []string{``, `[]`, `{"transactionType": "RECURRENCE"}`, `{"status": "CREATED", "amount": "35.00"}`,
		`{"requestBody": {"status": "CREATED", "payerMax": 1e3}}`} {
		if got, err := DecodeRecurrence([]byte(body)); err == nil {
			t.Errorf("DecodeRecurrence(%q) = %+v, want an error", body, got)
		}
	}
}
