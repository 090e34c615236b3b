package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The catalog: every transactionType with its statuses, behind the
// webhooks:read scope.
func TestV1WebhookEvents(t *testing.T) {
	e := newEnv(t)
	in, v1 := e.integrator("Loja Catalogo", money.Percent(0), money.Fixed(0))
	r := e.call(http.MethodGet, "/api/v1/webhook-events", v1, nil).expect(t, http.StatusOK)
	types := map[string][]string{}
	for _, d := range r.data() {
		var names []string
		for _, s := range d["statuses"].([]any) {
			st := s.(map[string]any)
			if st["description"] == "" {
				t.Errorf("%v %v has no description", d["transaction_type"], st["status"])
			}
			names = append(names, st["status"].(string))
		}
		types[d["transaction_type"].(string)] = names
	}
	for _, want := range []string{"RECEIVEPIX", "PAYMENT", "REFUND", "MED_RETURN", "INFRACTION", "RECURRENCE", "RECURRENCE_CYCLE", "RECURRENCE_ATTEMPT"} {
		if len(types[want]) == 0 {
			t.Errorf("%s missing: %s", want, r.raw)
		}
	}
	if got := types["RECEIVEPIX"]; len(got) != 2 || got[0] != "PAID" || got[1] != "EXPIRED" {
		t.Errorf("RECEIVEPIX statuses = %v", got)
	}
	_, noScope, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeChargesRead}})
	if err != nil {
		t.Fatal(err)
	}
	e.call(http.MethodGet, "/api/v1/webhook-events", noScope.Token(), nil).expect(t, http.StatusForbidden)
	e.call(http.MethodGet, "/api/v1/webhook-events", "", nil).expect(t, http.StatusUnauthorized)
}
