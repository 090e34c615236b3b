package sandbox

import (
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// Integrations of the provider family send charges whose payer has only a
// name, empty document and e-mail, or no payer at all, and the family's
// providers accept them; the sandbox plays one, so it accepts them too.
func TestChargeTakesThePayersTheFamilyTakes(t *testing.T) {
	e := newEnv(t, Config{})
	for name, payer := range map[string]any{
		"only a name":                  map[string]any{"name": "Fulano de Tal"},
		"empty document and e-mail":    map[string]any{"name": "Fulano de Tal", "document": "", "email": ""},
		"blank document":               map[string]any{"name": "Fulano de Tal", "document": "   "},
		"an empty payer":               map[string]any{},
		"a null payer":                 nil,
		"a document and no name":       map[string]any{"document": "529.982.247-25"},
		"name, document and no e-mail": map[string]any{"name": "Fulano de Tal", "document": "52998224725"},
	} {
		status, body := e.post("/v2/pix/qrcode", map[string]any{"amount": 10, "payer": payer})
		if status != 200 || body["status"] != "PENDING" {
			t.Errorf("%s: %d %v", name, status, body)
		}
	}
	if status, _ := e.post("/v2/pix/qrcode", map[string]any{"amount": 10}); status != 200 {
		t.Errorf("no payer: %d", status)
	}
	if status, _ := e.post("/v2/pix/qrcode", map[string]any{"amount": 10, "payer": map[string]any{"name": "F", "document": "123"}}); status != 422 {
		t.Errorf("a wrong document is still refused: %d", status)
	}

	// Paid, the named payer keeps its name; the sandbox's own payer lends
	// the tax id it lacks.
	status, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 10, "payer": map[string]any{"name": "Fulano de Tal"}})
	if status != 200 {
		t.Fatalf("charge: %d %v", status, charge)
	}
	paid, err := e.sb.PayCharge(charge["transactionId"].(string), Payer{})
	if err != nil || paid.CreditParty == nil || paid.CreditParty.Name != "Fulano de Tal" || paid.CreditParty.TaxID != defaultPayer().TaxID {
		t.Fatalf("paid %+v, %v", paid, err)
	}
}

// Expiring a charge through the control notifies, as the provider does
// when a charge expires, so PixGate's EXPIRED path can be tried at once.
func TestExpireNotifiesExpired(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	_, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 15, "external_id": "chg-1", "postbackUrl": rc.url()})
	id := charge["transactionId"].(string)
	if status, body := e.call("/sandbox/charges/"+id+"/expire", "", nil, nil); status != 200 || body["status"] != contract.StatusExpired {
		t.Fatalf("expire: %d %v", status, body)
	}
	waitFor(t, "the EXPIRED notification", func() bool { return len(rc.bodies()) == 1 })
	if n := rc.bodies()[0]; n["transactionType"] != "RECEIVEPIX" || n["transactionId"] != id || n["status"] != contract.StatusExpired {
		t.Fatalf("notification %v", n)
	}
}
