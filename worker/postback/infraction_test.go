package postback

import (
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// An infraction's postback, byte for byte: the family's transaction fields
// (the disputed charge's pix_id and external_id, Brasília dates) and
// PixGate's additions beside them.
func TestForInfractionBody(t *testing.T) {
	c := testCharge()
	inf := storage.Infraction{ID: uuid.MustParse("019a0000-0000-7000-8000-0000000000f1"), IntegratorID: 7, ChargeID: c.ID,
		ChargePixID: *c.PixID, ProviderID: "inf-1", Amount: money.FromReais(10, 0), Blocked: money.FromReais(6, 0),
		Status: storage.InfractionOpen, Reason: ptr("golpe"), ReportedAt: &paidAt, DueAt: &paidAt, CreatedAt: paidAt}
	retID := uuid.MustParse("019a0000-0000-7000-8000-0000000000f2")
	agreed := inf
	agreed.Status, agreed.ClosedAt, agreed.Analysis, agreed.MedReturnID = storage.InfractionAgreed, &paidAt, ptr("analisado"), &retID
	// Neither the provider's pix_id of the charge on the infraction nor a
	// report date: the charge's pix_id, and the date PixGate recorded it.
	bare := inf
	bare.ChargePixID, bare.ReportedAt, bare.Reason, bare.DueAt = "", nil, nil, nil
	for _, tt := range []struct {
		name string
		inf  storage.Infraction
		want string
	}{
		{"open", inf, `{"requestBody":{"transactionType":"INFRACTION","transactionId":"019a0000-0000-7000-8000-0000000000f1",` +
			`"external_id":"pedido-42","pix_id":"abcdefghijklmnopqrstuvwxyz012345","amount":10.00,"paymentType":"PIX","status":"OPEN",` +
			`"description":"golpe","dateCreated":"2026-03-10 15:04:05","dueDate":"2026-03-10 15:04:05",` +
			`"id":"019a0000-0000-7000-8000-0000000000f1","charge_id":"019a0000-0000-7000-8000-000000000001","blocked_amount":6.00,"shortfall":4.00}}`},
		{"agreed", agreed, `{"requestBody":{"transactionType":"INFRACTION","transactionId":"019a0000-0000-7000-8000-0000000000f1",` +
			`"external_id":"pedido-42","pix_id":"abcdefghijklmnopqrstuvwxyz012345","amount":10.00,"paymentType":"PIX","status":"AGREED",` +
			`"description":"golpe","dateCreated":"2026-03-10 15:04:05","dateApproval":"2026-03-10 15:04:05","dueDate":"2026-03-10 15:04:05",` +
			`"analysisDetails":"analisado",` +
			`"id":"019a0000-0000-7000-8000-0000000000f1","charge_id":"019a0000-0000-7000-8000-000000000001","blocked_amount":6.00,"shortfall":4.00,` +
			`"med_return_id":"019a0000-0000-7000-8000-0000000000f2"}}`},
		{"bare", bare, `{"requestBody":{"transactionType":"INFRACTION","transactionId":"019a0000-0000-7000-8000-0000000000f1",` +
			`"external_id":"pedido-42","pix_id":"abcdefghijklmnopqrstuvwxyz012345","amount":10.00,"paymentType":"PIX","status":"OPEN",` +
			`"dateCreated":"2026-03-10 15:04:05",` +
			`"id":"019a0000-0000-7000-8000-0000000000f1","charge_id":"019a0000-0000-7000-8000-000000000001","blocked_amount":6.00,"shortfall":4.00}}`},
	} {
		ev, ok := ForInfraction(tt.inf, c)
		if !ok {
			t.Fatalf("%s: no event", tt.name)
		}
		if ev.ResourceType != "infraction" || ev.ResourceID != inf.ID || ev.Name != string(tt.inf.Status) || ev.URL != *c.PostbackURL {
			t.Errorf("%s: event = %+v", tt.name, ev)
		}
		if string(ev.Body) != tt.want {
			t.Errorf("%s: body\n got %s\nwant %s", tt.name, ev.Body, tt.want)
		}
	}
	noURL := c
	noURL.PostbackURL = nil
	if _, ok := ForInfraction(inf, noURL); ok {
		t.Error("an infraction of a charge without a postbackUrl has an event")
	}
}
