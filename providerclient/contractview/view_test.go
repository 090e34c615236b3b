package contractview

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

func TestContractTransactions(t *testing.T) {
	created := time.Date(2026, 3, 10, 18, 0, 0, 0, time.UTC) // 15:00 in Brasília
	done := created.Add(4*time.Minute + 5*time.Second)
	expires := created.Add(time.Hour)
	str := func(s string) *string { return &s }
	charge := storage.Charge{ID: uuid.New(), ExternalID: "pedido-42", Amount: 1500, Fee: 23, Status: storage.ChargePending,
		PixID: str("abcdefghijklmnopqrstuvwxyz012345"), QRCode: str("000201"), ExpiresAt: &expires,
		Payer: storage.Payer{Name: "Fulano", Document: "52998224725"}, CreatedAt: created}
	paid := charge
	paid.Status, paid.PaidAt = storage.ChargePaid, &done
	// What the provider said with the payment, and the question the payer saw.
	told := paid
	told.PayerQuestion = str("Pedido 42")
	told.PayerAccount = storage.PayerAccount{Name: "Fulana Pagadora", TaxID: "11222333000181", Bank: "Banco Exemplo"}
	wd := storage.Transfer{Kind: storage.KindWithdrawal, ID: uuid.MustParse("0195d1a3-1d4f-7c2b-8a5e-3c9d7e1f2a34"), Amount: 1000, Fee: 50, Status: storage.TransferProcessing, CreatedAt: created,
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e89b-12d3-a456-426614174000", TaxID: "52998224725"}}
	completed := wd
	completed.Status, completed.FinishedAt, completed.PixID, completed.EndToEndID = storage.TransferCompleted, &done, str("p1"), str("E1")
	failed := wd
	failed.Status, failed.FinishedAt, failed.FailureReason = storage.TransferFailed, &done, str("key not found")
	refund := storage.Transfer{Kind: storage.KindRefund, ChargePixID: "charge-pix", ID: uuid.MustParse("0195d1a4-2e5a-7d3c-9b6f-4d0e8f2a3b45"), Amount: 500, Status: storage.TransferCompleted, ExternalID: str("rf-1"), CreatedAt: created, FinishedAt: &done}

	tests := []struct {
		name string
		got  any
		want string
	}{
		{"pending charge", ChargeTransaction(charge),
			`{"transactionType":"RECEIVEPIX","transactionId":"abcdefghijklmnopqrstuvwxyz012345","external_id":"pedido-42","amount":15.00,"paymentType":"PIX","status":"PENDING","dateCreated":"2026-03-10 15:00:00","dueDate":"2026-03-10 16:00:00","creditParty":{"name":"Fulano","taxId":"52998224725"},"debitParty":{},"qrcode":"000201"}`},
		{"paid charge", ChargeTransaction(paid),
			`{"transactionType":"RECEIVEPIX","transactionId":"abcdefghijklmnopqrstuvwxyz012345","external_id":"pedido-42","amount":15.00,"paymentType":"PIX","status":"PAID","dateCreated":"2026-03-10 15:00:00","dateApproval":"2026-03-10 15:04:05","dueDate":"2026-03-10 16:00:00","creditParty":{"name":"Fulano","taxId":"52998224725"},"debitParty":{},"qrcode":"000201"}`},
		{"paid charge, the payer's account known", ChargeTransaction(told),
			`{"transactionType":"RECEIVEPIX","transactionId":"abcdefghijklmnopqrstuvwxyz012345","external_id":"pedido-42","amount":15.00,"paymentType":"PIX","status":"PAID","description":"Pedido 42","dateCreated":"2026-03-10 15:00:00","dateApproval":"2026-03-10 15:04:05","dueDate":"2026-03-10 16:00:00","creditParty":{"name":"Fulano","taxId":"52998224725"},"debitParty":{"name":"Fulana Pagadora","taxId":"11222333000181","bank":"Banco Exemplo"},"qrcode":"000201"}`},
		{"processing withdrawal", TransferTransaction(wd),
			`{"transactionType":"PAYMENT","transactionId":"0195d1a31d4f7c2b8a5e3c9d7e1f2a34","amount":10.00,"paymentType":"PIX","status":"PROCESSING","dateCreated":"2026-03-10 15:00:00","creditParty":{"name":"Beltrano","taxId":"52998224725","keyType":"EVP","key":"123e4567-e89b-12d3-a456-426614174000"}}`},
		// The provider's id (p1) stays internal: integrators know PixGate's.
		{"completed withdrawal", TransferTransaction(completed),
			`{"transactionType":"PAYMENT","transactionId":"0195d1a31d4f7c2b8a5e3c9d7e1f2a34","amount":10.00,"paymentType":"PIX","status":"COMPLETED","statusCode":{"statusId":1,"description":"payment completed"},"endToEndId":"E1","dateCreated":"2026-03-10 15:00:00","dateApproval":"2026-03-10 15:04:05","creditParty":{"name":"Beltrano","taxId":"52998224725","keyType":"EVP","key":"123e4567-e89b-12d3-a456-426614174000"}}`},
		{"failed withdrawal: no dateApproval", TransferTransaction(failed),
			`{"transactionType":"PAYMENT","transactionId":"0195d1a31d4f7c2b8a5e3c9d7e1f2a34","amount":10.00,"paymentType":"PIX","status":"FAILED","statusCode":{"statusId":3,"description":"key not found"},"dateCreated":"2026-03-10 15:00:00","creditParty":{"name":"Beltrano","taxId":"52998224725","keyType":"EVP","key":"123e4567-e89b-12d3-a456-426614174000"}}`},
		{"completed refund", TransferTransaction(refund),
			`{"transactionType":"REFUND","transactionId":"0195d1a42e5a7d3c9b6f4d0e8f2a3b45","external_id":"rf-1","pix_id":"charge-pix","amount":5.00,"paymentType":"PIX","status":"COMPLETED","statusCode":{"statusId":1,"description":"refund completed"},"dateCreated":"2026-03-10 15:00:00","dateApproval":"2026-03-10 15:04:05"}`},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(tt.got)
		if string(b) != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.name, b, tt.want)
		}
	}
}

func TestContractInfractionAndBalance(t *testing.T) {
	reported := time.Date(2026, 3, 10, 18, 0, 0, 0, time.UTC) // 15:00 in Brasília
	due, closed := reported.Add(7*24*time.Hour), reported.Add(24*time.Hour)
	str := func(s string) *string { return &s }
	charge := storage.Charge{ExternalID: "pedido-42", PixID: str("charge-pix")}
	open := storage.Infraction{ID: uuid.MustParse("0195d1a5-3f6b-7e4d-8c70-5e1f9a3b4c56"), ChargePixID: "inf-charge-pix", Amount: 1500,
		Status: storage.InfractionOpen, Reason: str("golpe"), ReportedAt: &reported, DueAt: &due, CreatedAt: reported.Add(time.Minute)}
	agreed := open
	agreed.Status, agreed.ClosedAt, agreed.Analysis = storage.InfractionAgreed, &closed, str("analisado")
	// The provider named neither the charge's pix_id nor when it was
	// reported: the charge's, and when PixGate recorded it.
	bare := open
	bare.ChargePixID, bare.ReportedAt, bare.Reason, bare.DueAt = "", nil, nil, nil

	tests := []struct {
		name string
		got  any
		want string
	}{
		{"open infraction", Infraction(open, charge),
			`{"transactionType":"INFRACTION","transactionId":"0195d1a5-3f6b-7e4d-8c70-5e1f9a3b4c56","external_id":"pedido-42","pix_id":"inf-charge-pix","amount":15.00,"paymentType":"PIX","status":"OPEN","description":"golpe","dateCreated":"2026-03-10 15:00:00","dueDate":"2026-03-17 15:00:00"}`},
		{"agreed infraction", Infraction(agreed, charge),
			`{"transactionType":"INFRACTION","transactionId":"0195d1a5-3f6b-7e4d-8c70-5e1f9a3b4c56","external_id":"pedido-42","pix_id":"inf-charge-pix","amount":15.00,"paymentType":"PIX","status":"AGREED","description":"golpe","dateCreated":"2026-03-10 15:00:00","dateApproval":"2026-03-11 15:00:00","dueDate":"2026-03-17 15:00:00","analysisDetails":"analisado"}`},
		{"infraction the provider said little of", Infraction(bare, charge),
			`{"transactionType":"INFRACTION","transactionId":"0195d1a5-3f6b-7e4d-8c70-5e1f9a3b4c56","external_id":"pedido-42","pix_id":"charge-pix","amount":15.00,"paymentType":"PIX","status":"OPEN","dateCreated":"2026-03-10 15:01:00"}`},
		// Reserved and blocked money is in no field of the family's balance.
		{"balance", Balance(storage.Wallet{Available: 1000, Pending: 250, Reserved: 300, Blocked: 40}),
			`{"balance":12.50,"available":10.00,"pending":2.50,"currency":"BRL"}`},
	}
	for _, tt := range tests {
		b, _ := json.Marshal(tt.got)
		if string(b) != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.name, b, tt.want)
		}
	}
}
