package postback

import (
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// Every postback body, for every status that sends one, matches its webhook
// in docs/openapi.yaml, the description integrators build receivers from.
func TestPostbackBodiesMatchOpenAPI(t *testing.T) {
	doc := openapitest.Load(t)
	for _, status := range []storage.ChargeStatus{storage.ChargePaid, storage.ChargeExpired} { // the statuses that send one
		c := testCharge()
		c.Status = status
		if status == storage.ChargeExpired {
			c.PaidAt, c.EndToEndID = nil, nil
		}
		ev, _ := ForCharge(c)
		openapitest.Webhook(t, doc, "charge", ev.Body)
	}
	for _, status := range []storage.TransferStatus{storage.TransferCompleted, storage.TransferFailed} {
		w := storage.Transfer{
			Kind: storage.KindWithdrawal, ID: uuid.New(), IntegratorID: 7, Amount: money.FromReais(10, 0), Fee: money.FromReais(0, 50), Status: status,
			CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com", TaxID: "52998224725"},
			PostbackURL: ptr("https://loja.example/pix"), FinishedAt: &paidAt, CreatedAt: paidAt,
		}
		if status == storage.TransferFailed {
			w.FailureReason = ptr("the receiving institution rejected the PIX key")
		} else {
			w.PixID, w.EndToEndID = ptr("p1"), ptr("E12345678202603101804abcdefghijk")
		}
		ev, _ := ForTransfer(w)
		openapitest.Webhook(t, doc, "withdrawal", ev.Body)

		r := storage.Transfer{Kind: storage.KindRefund, ChargePixID: "charge-pix-id", ID: uuid.New(), IntegratorID: 7, Amount: money.FromReais(5, 0), Fee: money.FromReais(0, 50),
			Status: status, PixID: ptr("r1"), FinishedAt: &paidAt, CreatedAt: paidAt, PostbackURL: ptr("https://loja.example/pix"),
			FailureReason: w.FailureReason, EndToEndID: w.EndToEndID}
		ev, _ = ForTransfer(r)
		openapitest.Webhook(t, doc, "refund", ev.Body)

		m := r
		m.Kind, m.Fee, m.ID = storage.KindMedReturn, 0, uuid.New()
		ev, _ = ForTransfer(m)
		openapitest.Webhook(t, doc, "medReturn", ev.Body)
	}
	c := testCharge()
	retID := uuid.New()
	for _, status := range storage.InfractionStatuses {
		inf := storage.Infraction{ID: uuid.New(), IntegratorID: 7, ChargeID: c.ID, ChargePixID: *c.PixID, ProviderID: "inf-1",
			Amount: money.FromReais(10, 0), Blocked: money.FromReais(6, 0), Status: status, Reason: ptr("golpe"),
			ReportedAt: &paidAt, DueAt: &paidAt, CreatedAt: paidAt}
		if status != storage.InfractionOpen {
			inf.ClosedAt, inf.Analysis = &paidAt, ptr("analisado")
		}
		if status == storage.InfractionAgreed {
			inf.MedReturnID = &retID
		}
		ev, ok := ForInfraction(inf, c)
		if !ok {
			t.Fatalf("no postback of a %s infraction", status)
		}
		openapitest.Webhook(t, doc, "infraction", ev.Body)
	}
}
