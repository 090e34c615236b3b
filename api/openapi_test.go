package api

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// Every route the app registers is in docs/openapi.yaml, and every path the
// document describes is served: the document cannot drift from the router.
func TestOpenAPIDescribesExactlyTheServedRoutes(t *testing.T) {
	doc := openapitest.Load(t)
	described := openapitest.Routes(doc)
	var served []string
	for _, r := range New(Config{}, Deps{}).App().GetRoutes(true) {
		switch {
		case r.Method == http.MethodHead: // Fiber adds HEAD to every GET
		case r.Path == pathDocs+"/*": // the documentation page's own assets
		default:
			served = append(served, r.Method+" "+fiberToOpenAPI(r.Path))
		}
	}
	for _, r := range served {
		if !slices.Contains(described, r) {
			t.Errorf("served but not in docs/openapi.yaml: %s", r)
		}
	}
	for _, r := range described {
		if !slices.Contains(served, r) {
			t.Errorf("in docs/openapi.yaml but not served: %s", r)
		}
	}
}

// fiberToOpenAPI writes /api/v1/charges/:charge as /api/v1/charges/{charge}.
func fiberToOpenAPI(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if name, ok := strings.CutPrefix(p, ":"); ok {
			parts[i] = "{" + name + "}"
		}
	}
	return strings.Join(parts, "/")
}

// Real answers of the main flows, successes and errors, match the schemas
// of docs/openapi.yaml (and their statuses are the documented ones).
func TestOpenAPIMatchesRealAnswers(t *testing.T) {
	e := newEnv(t, func(s *setup) {
		s.cfg.ProviderWebhookToken = "t0k3n"
		s.cfg.V1RatePerMinute = 1000
		s.cfg.V2TokenRatePerMinute = 1000
	})
	v := openapitest.New(t, e.url)
	check := func(r reply) reply {
		t.Helper()
		v.Response(t, r.req, r.status, r.header, []byte(r.raw))
		return r
	}
	in, token := e.integrator("Loja OpenAPI", money.Percent(15000), money.Fixed(50))
	e.fund(in.ID, money.FromReais(100, 0))
	_, readOnly, err := e.db.CreateKey(context.Background(), storage.NewKey{IntegratorID: in.ID, Scopes: []string{storage.ScopeChargesRead}})
	if err != nil {
		t.Fatal(err)
	}

	check(e.call(http.MethodGet, "/", "", nil).expect(t, 200))
	check(e.call(http.MethodGet, "/healthz", "", nil).expect(t, 200))
	check(e.call(http.MethodGet, "/readyz", "", nil).expect(t, 200))
	check(e.call(http.MethodGet, "/openapi.yaml", "", nil).expect(t, 200))
	check(e.call(http.MethodGet, "/docs", "", nil).expect(t, 200))

	check(e.call(http.MethodGet, "/api/v1/balance", token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/balance", "", nil).expect(t, 401))
	check(e.call(http.MethodGet, "/api/v1/balance", readOnly.Token(), nil).expect(t, 403))

	created := check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, 201))
	check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil)).expect(t, 200))
	check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"amount": "16"})).expect(t, 409))
	check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"payer": `{"name":""}`})).expect(t, 422))
	check(e.call(http.MethodPost, "/api/v1/charges", token, `{"amount":`).expect(t, 400))
	check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(nil), "Content-Type", "text/plain").expect(t, 415))
	check(e.call(http.MethodGet, "/api/v1/charges/"+created.str("id"), token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/charges/order-1001", token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/charges/nope", token, nil).expect(t, 404))
	check(e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"external_id": `"order-1002"`})).expect(t, 201))
	page := check(e.call(http.MethodGet, "/api/v1/charges?per_page=1&status=pending", token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/charges?per_page=1&cursor="+page.str("meta.next_cursor"), token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/charges?status=LOST", token, nil).expect(t, 422))

	w := check(e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(nil)).expect(t, 201))
	check(e.call(http.MethodPost, "/api/v1/withdrawals", token, validWithdrawal(map[string]string{"external_id": `"saque-2"`, "amount": "500"})).expect(t, 422))
	check(e.call(http.MethodGet, "/api/v1/withdrawals/"+w.str("id"), token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/withdrawals?status=PROCESSING", token, nil).expect(t, 200))

	// v2: tokens by Basic and by JSON, their errors, the balance.
	publicID, secret := keyPair(token)
	check(e.call(http.MethodPost, "/v2/oauth/token", "", "", "Authorization", basicAuth(publicID, secret), "Content-Type", "").expect(t, 200))
	issued := check(e.call(http.MethodPost, "/v2/oauth/token", "", map[string]string{
		"grant_type": "client_credentials", "public_id": publicID, "secret": secret}).expect(t, 200))
	check(e.call(http.MethodPost, "/v2/oauth/token", "", map[string]string{"grant_type": "password", "public_id": publicID, "secret": secret}).expect(t, 400))
	check(e.call(http.MethodPost, "/v2/oauth/token", "", map[string]string{"public_id": publicID, "secret": "sk_wrong"}).expect(t, 401))
	check(e.call(http.MethodPost, "/v2/balance", issued.str("access_token"), nil).expect(t, 200))
	check(e.call(http.MethodPost, "/v2/balance", token, nil).expect(t, 401))

	// v2 PIX: a charge paid and partly refunded, a payment, their lookups, refusals.
	v2 := issued.str("access_token")
	charge := check(e.call(http.MethodPost, "/v2/pix/qrcode", v2, familyCharge("pedido-v2", "30")).expect(t, 200))
	check(e.call(http.MethodPost, "/v2/pix/qrcode", v2, `{"amount": 10}`).expect(t, 422))
	e.markPaid(in.ID, charge.str("transactionId"))
	refund := check(e.call(http.MethodPost, "/v2/pix/refund", v2, map[string]any{"pix_id": charge.str("transactionId"), "amount": 5}).expect(t, 200))
	check(e.call(http.MethodPost, "/v2/pix/refund", v2, map[string]any{"pix_id": charge.str("transactionId"), "amount": 50}).expect(t, 422))
	check(e.call(http.MethodPost, "/v2/pix/refund", v2, map[string]any{"pix_id": "nope", "amount": 1}).expect(t, 404))
	// v1 refunds of the same charge, named by its external_id.
	check(e.call(http.MethodPost, "/api/v1/charges/pedido-v2/refunds", token, `{"amount": 1, "external_id": "dev-1"}`).expect(t, 201))
	check(e.call(http.MethodPost, "/api/v1/charges/pedido-v2/refunds", token, `{"amount": 1, "external_id": "dev-1"}`).expect(t, 200))
	check(e.call(http.MethodPost, "/api/v1/charges/pedido-v2/refunds", token, `{"amount": 2, "external_id": "dev-1"}`).expect(t, 409))
	check(e.call(http.MethodPost, "/api/v1/charges/"+created.str("id")+"/refunds", token, `{"amount": 1}`).expect(t, 422))
	check(e.call(http.MethodPost, "/api/v1/charges/nope/refunds", token, `{"amount": 1}`).expect(t, 404))
	check(e.call(http.MethodGet, "/api/v1/charges/pedido-v2/refunds?per_page=1", token, nil).expect(t, 200))
	check(e.call(http.MethodGet, "/api/v1/charges/pedido-v2/refunds?page=2", token, nil).expect(t, 422))
	payment := check(e.call(http.MethodPost, "/v2/pix/payment", v2, validWithdrawal(map[string]string{"external_id": `"saque-v2"`})).expect(t, 200))
	for _, pixID := range []string{charge.str("transactionId"), refund.str("transactionId"), payment.str("transactionId")} {
		check(e.call(http.MethodPost, "/v2/consult-transaction", v2, map[string]any{"pix_id": pixID}).expect(t, 200))
	}
	check(e.call(http.MethodPost, "/v2/consult-transaction", v2, map[string]any{"pix_id": "nope"}).expect(t, 404))
	check(e.call(http.MethodPost, "/v2/consult-transaction", v2, `{}`).expect(t, 422))
	check(e.call(http.MethodPost, "/v2/pix/payment", token, validWithdrawal(nil)).expect(t, 401))

	notification := `{"requestBody":{"transactionType":"PAYMENT","transactionId":"abc","status":"COMPLETED","amount":25.10}}`
	check(e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", notification).expect(t, 200))
	check(e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", `{"status":"PAID"}`).expect(t, 400))
	check(e.call(http.MethodPost, "/webhooks/provider/wrong", "", notification).expect(t, 404))
}

// / points people and tools at the documentation instead of a 404.
func TestRootPointsAtTheDocs(t *testing.T) {
	e := newEnv(t)
	r := e.call(http.MethodGet, "/", "", nil).expect(t, 200)
	if r.str("docs") != "/docs" || r.str("openapi") != "/openapi.yaml" {
		t.Fatalf("/ = %s", r.raw)
	}
	page := e.call(http.MethodGet, "/docs", "", nil).expect(t, 200)
	if !strings.Contains(page.raw, "swagger-ui-bundle.js") || strings.Contains(page.raw, `src="http`) || strings.Contains(page.raw, `href="http`) {
		t.Fatalf("/docs does not load its own assets only:\n%s", page.raw)
	}
	if js := e.call(http.MethodGet, "/docs/swagger-ui-bundle.js", "", nil).expect(t, 200); len(js.raw) < 100_000 {
		t.Fatalf("the embedded renderer is missing: %d bytes", len(js.raw))
	}
}

// Every member the one error body can carry is a property of the Error
// schema, the token endpoint's error and error_description included:
// clients generated from the document read them.
func TestOpenAPIErrorSchemaHasEveryMember(t *testing.T) {
	schema := openapitest.Load(t).Components.Schemas["Error"].Value
	typ := reflect.TypeFor[errorBody]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if _, ok := schema.Properties[name]; !ok {
			t.Errorf("the Error schema lacks %q, which error answers carry", name)
		}
	}
}
