package postback

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

func ptr[T any](v T) *T { return &v }

// paidAt is 2026-03-10 18:04:05 UTC, 15:04:05 in Brasília.
var paidAt = time.Date(2026, 3, 10, 18, 4, 5, 0, time.UTC)

func testCharge() storage.Charge {
	return storage.Charge{
		ID: uuid.MustParse("019a0000-0000-7000-8000-000000000001"), IntegratorID: 7, ExternalID: "pedido-42",
		Amount: money.FromReais(15, 0), Fee: money.FromReais(0, 23), Status: storage.ChargePaid,
		PixID: ptr("abcdefghijklmnopqrstuvwxyz012345"), PaidAt: &paidAt, CreatedAt: paidAt.Add(-3 * time.Minute), EndToEndID: ptr("E12345678202603101804abcdefghijk"),
		Payer:       storage.Payer{Name: "Fulano de Tal", Document: "52998224725", Email: ptr("fulano@example.com")},
		PostbackURL: ptr("https://loja.example/pix"),
	}
}

func TestForChargeBody(t *testing.T) {
	ev, ok := ForCharge(testCharge())
	if !ok {
		t.Fatal("a paid charge with a postback URL has an event")
	}
	if ev.ResourceType != "charge" || ev.Name != "PAID" || ev.IntegratorID != 7 || ev.URL != "https://loja.example/pix" {
		t.Fatalf("event = %+v", ev)
	}
	want := `{"requestBody":{"transactionType":"RECEIVEPIX","transactionId":"abcdefghijklmnopqrstuvwxyz012345",` +
		`"external_id":"pedido-42","amount":15.00,"paymentType":"PIX","status":"PAID",` +
		`"endToEndId":"E12345678202603101804abcdefghijk","dateCreated":"2026-03-10 15:01:05",` +
		`"dateApproval":"2026-03-10 15:04:05",` +
		`"creditParty":{"name":"Fulano de Tal","email":"fulano@example.com","taxId":"52998224725"},"debitParty":{},` +
		`"id":"019a0000-0000-7000-8000-000000000001","fee":0.23,"net_amount":14.77}}`
	if string(ev.Body) != want {
		t.Fatalf("body\n got %s\nwant %s", ev.Body, want)
	}
}

func TestNoEvent(t *testing.T) {
	pending, noURL, failed, refunded := testCharge(), testCharge(), testCharge(), testCharge()
	pending.Status, noURL.PostbackURL, failed.Status, refunded.Status = storage.ChargePending, nil, storage.ChargeFailed, storage.ChargeRefunded
	w := storage.Transfer{Kind: storage.KindWithdrawal, Status: storage.TransferProcessing, PostbackURL: ptr("https://x.example/")}
	for name, ok := range map[string]bool{
		"pending charge":        second(ForCharge(pending)),
		"charge without URL":    second(ForCharge(noURL)),
		"failed charge":         second(ForCharge(failed)),
		"refunded charge":       second(ForCharge(refunded)),
		"processing withdrawal": second(ForTransfer(w)),
		"processing refund": second(ForTransfer(storage.Transfer{Kind: storage.KindRefund, Status: "PROCESSING", ChargePixID: "p",
			PostbackURL: ptr("https://x.example/")})),
	} {
		if ok {
			t.Errorf("%s: got an event", name)
		}
	}
}

func second(_ Event, ok bool) bool { return ok }

func TestForWithdrawalAndRefundBodies(t *testing.T) {
	w := storage.Transfer{
		Kind: storage.KindWithdrawal, ID: uuid.New(), IntegratorID: 7, ExternalID: ptr("saque-1"), Amount: money.FromReais(10, 0), Fee: money.FromReais(0, 50),
		Status: storage.TransferFailed, FailureReason: ptr("key not found"), FinishedAt: &paidAt,
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com", TaxID: "52998224725"},
		PostbackURL: ptr("https://loja.example/pix"), PixID: ptr("p1"),
	}
	ev, ok := ForTransfer(w)
	if !ok || ev.ResourceType != "withdrawal" || ev.Name != "FAILED" {
		t.Fatalf("withdrawal event = %+v, %v", ev, ok)
	}
	var got struct {
		RequestBody map[string]any `json:"requestBody"`
	}
	decode(t, ev.Body, &got)
	b := got.RequestBody
	if b["transactionType"] != "PAYMENT" || b["status"] != "FAILED" || b["failure_reason"] != "key not found" || b["transactionId"] != w.PublicPixID() ||
		b["dateApproval"] != nil || b["endToEndId"] != nil || b["external_id"] != "saque-1" {
		t.Fatalf("withdrawal body = %s", ev.Body)
	}
	if sc := b["statusCode"].(map[string]any); sc["statusId"] != json.Number("3") {
		t.Fatalf("statusCode = %v", sc)
	}
	if cp := b["creditParty"].(map[string]any); cp["keyType"] != "EMAIL" || cp["key"] != "b@example.com" {
		t.Fatalf("creditParty = %v", cp)
	}
	if !strings.Contains(string(ev.Body), `"amount":10.00,`) || !strings.Contains(string(ev.Body), `"fee":0.50,`) {
		t.Fatalf("amounts are not 2-decimal numbers: %s", ev.Body)
	}

	r := storage.Transfer{Kind: storage.KindRefund, ChargePixID: "charge-pix-id", ID: uuid.New(), IntegratorID: 7,
		Amount: money.FromReais(5, 0), Status: storage.TransferCompleted,
		PixID: ptr("r1"), EndToEndID: ptr("D12345678202603101804abcdefghijk"), FinishedAt: &paidAt, PostbackURL: ptr("https://loja.example/pix")}
	ev, ok = ForTransfer(r)
	if !ok || ev.ResourceType != "refund" || ev.Name != "COMPLETED" {
		t.Fatalf("refund event = %+v, %v", ev, ok)
	}
	got.RequestBody = nil // decoding into a map merges keys
	decode(t, ev.Body, &got)
	b = got.RequestBody
	if b["transactionType"] != "REFUND" || b["pix_id"] != "charge-pix-id" || b["transactionId"] != r.PublicPixID() ||
		b["statusCode"].(map[string]any)["statusId"] != json.Number("1") || b["failure_reason"] != nil ||
		b["dateApproval"] != "2026-03-10 15:04:05" {
		t.Fatalf("refund body = %s", ev.Body)
	}
}

func decode(t *testing.T, b []byte, v any) {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestNewPostback(t *testing.T) {
	ev, _ := ForCharge(testCharge())
	np := NewPostback(ev)
	if np.ID.Version() != 7 || np.Event != "PAID" || np.ResourceID != ev.ResourceID || string(np.Body) != string(ev.Body) {
		t.Fatalf("NewPostback = %+v", np)
	}
	want := tasks.NewPostbackMessage(np.ID, tasks.PostbackCopy{IntegratorID: ev.IntegratorID, URL: ev.URL, Body: string(ev.Body)})
	if np.Outbox.Type != want.Type || np.Outbox.ID != want.ID || string(np.Outbox.Payload) != string(want.Payload) {
		t.Fatalf("outbox = %+v, want %+v", np.Outbox, want)
	}
}

// A family parser refuses "email": null: what PixGate does not know is left
// out of a postback, never sent as null.
func TestAbsentFieldsAreLeftOut(t *testing.T) {
	noEmail := testCharge()
	noEmail.Payer.Email = nil
	expired := testCharge()
	expired.Status, expired.PaidAt = storage.ChargeExpired, nil
	w := storage.Transfer{Kind: storage.KindWithdrawal, ID: uuid.New(), IntegratorID: 7, Amount: 1000, Status: storage.TransferFailed,
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EVP", Key: "123e4567-e89b-12d3-a456-426614174000", TaxID: "52998224725"},
		PostbackURL: ptr("https://loja.example/pix")}
	r := storage.Transfer{Kind: storage.KindRefund, ChargePixID: "charge-pix-id", ID: uuid.New(), IntegratorID: 7, Amount: 500,
		Status: storage.TransferCompleted, PostbackURL: ptr("https://loja.example/pix")}
	for name, ev := range map[string]Event{
		"charge without payer email":                           first(ForCharge(noEmail)),
		"charge never paid":                                    first(ForCharge(expired)),
		"withdrawal without external_id, pix_id or endToEndId": first(ForTransfer(w)),
		"refund without external_id":                           first(ForTransfer(r)),
	} {
		if strings.Contains(string(ev.Body), "null") {
			t.Errorf("%s: %s", name, ev.Body)
		}
	}
	if b := first(ForCharge(noEmail)).Body; !strings.Contains(string(b), `"creditParty":{"name":"Fulano de Tal","taxId":"52998224725"}`) {
		t.Errorf("payer without e-mail: %s", b)
	}
}

func first(ev Event, _ bool) Event { return ev }
