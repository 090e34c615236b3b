package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// onePoolAcquire bounds each wait for the only connection in the
// pool-of-one test: far above what the queue of its requests takes, so
// only a path that waits for a second connection while it holds the only
// one ever reaches it (and answers 503).
const onePoolAcquire = 10 * time.Second

// poolCall is one request of the pool-of-one test and the answers it may
// get.
type poolCall struct {
	name   string
	send   func() reply
	status []int
}

// Every request path takes at most one database connection at a time. The
// API runs on a pool of one connection, with the key cache, the group
// commit and the shared commits on as in production; v1, v2, the token endpoint and the provider's
// webhook are called all at once, with replays, idempotency conflicts and
// refusals. A path that needed a second connection while holding the
// first would wait out the acquire deadline and answer 503: any 5xx fails.
func TestRequestPathsNeedOneConnection(t *testing.T) {
	e := newEnv(t, withWebhookToken, noTokenRateLimit, func(s *setup) {
		s.pool = storage.Config{MaxConns: 1, AcquireTimeout: onePoolAcquire}
		s.fleet = []string{"default", "b"}
		s.cfg.V1RatePerMinute, s.cfg.V2RatePerMinute, s.cfg.AuthFailuresPerMinute = -1, -1, -1
	})
	if err := e.db.CacheKeys(t.Context(), time.Minute); err != nil {
		t.Fatal(err)
	}
	e.db.GroupCommit(t.Context(), 4, 32)
	e.db.ShareCommits(t.Context(), 4, 32)
	in, v1 := e.integrator("Loja Um", money.Percent(0), money.Fixed(10))
	holdAbove50(t, e, in.ID)
	e.fund(in.ID, money.FromReais(100, 0))
	token := e.accessToken(v1)
	pixID := e.paidV2Charge(in.ID, token, "pedido-pago", "50")
	charge := e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(nil)).expect(t, http.StatusCreated)
	wd := e.call(http.MethodPost, "/api/v1/withdrawals", v1, validWithdrawal(nil)).expect(t, http.StatusCreated)

	refund := func(amount, externalID string) func() reply {
		return func() reply {
			return e.v2("/v2/pix/refund", token, `{"pix_id": "`+pixID+`", "amount": `+amount+`, "external_id": "`+externalID+`"}`)
		}
	}
	payment := func(amount, externalID string) func() reply {
		return func() reply {
			return e.v2("/v2/pix/payment", token, `{"amount": `+amount+`, "external_id": "`+externalID+`",
				"creditParty": {"name": "Beltrano", "keyType": "CPF", "key": "`+validCPF+`", "taxId": "`+validCPF+`"}}`)
		}
	}
	get := func(path string) func() reply { return func() reply { return e.call(http.MethodGet, path, v1, nil) } }
	post := func(path, body string) func() reply {
		return func() reply { return e.call(http.MethodPost, path, v1, body) }
	}
	notify := func(status string) func() reply {
		return func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/t0k3n", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "`+status+`"}}`)
		}
	}
	// The payment and the refund the burst replays exist before it: sent
	// together, a replay and a conflicting request race to be the first,
	// and either may win.
	for _, first := range []func() reply{payment("2.00", "pag-1"), refund("5", "estorno-1")} {
		first().expect(t, http.StatusOK)
	}
	v1Refund := func(amount string) func() reply {
		return post("/api/v1/charges/pedido-pago/refunds", `{"amount": `+amount+`, "external_id": "devolucao-1"}`)
	}
	v1Refund("1")().expect(t, http.StatusCreated)
	inf := e.openInfraction(e.paidV2Charge(in.ID, token, "pedido-disputado", "20"))
	ok := []int{http.StatusOK}
	calls := []poolCall{
		{"v1 balance", get("/api/v1/balance"), ok},
		{"v1 charge replay", post("/api/v1/charges", validCharge(nil)), ok},
		{"v1 charge conflict", post("/api/v1/charges", validCharge(map[string]string{"amount": "99.00"})), []int{http.StatusConflict}},
		{"v1 charge", get("/api/v1/charges/" + charge.str("id")), ok},
		{"v1 charge batch replay", post("/api/v1/charges/batch", chargeBatch(validCharge(nil))), ok},
		// The env's sandbox serves no recurrences (no extensions): 422 journey_not_supported.
		{"v1 recurrence", post("/api/v1/recurrences", validRecurrence(nil)), []int{http.StatusUnprocessableEntity}},
		{"v1 recurrence get", get("/api/v1/recurrences/plano-ouro-1"), []int{http.StatusNotFound}},
		{"v1 recurrences", get("/api/v1/recurrences?status=APPROVED"), ok},
		{"v1 recurrence cancel", post("/api/v1/recurrences/plano-ouro-1/cancel", ""), []int{http.StatusNotFound}},
		{"v1 recurrence cycles", get("/api/v1/recurrences/plano-ouro-1/cycles"), []int{http.StatusNotFound}},
		{"v1 recurrence cycle", get("/api/v1/recurrences/plano-ouro-1/cycles/0"), []int{http.StatusNotFound}},
		{"v1 recurrence cycle cancel", post("/api/v1/recurrences/plano-ouro-1/cycles/0/cancel", ""), []int{http.StatusNotFound}},
		{"v1 recurrence cycle amount", func() reply {
			return e.call(http.MethodPut, "/api/v1/recurrences/plano-ouro-1/cycles/0", v1, `{"amount": 10.00}`)
		}, []int{http.StatusNotFound}},
		{"v1 charges", get("/api/v1/charges?per_page=5"), ok},
		{"v1 withdrawal replay", post("/api/v1/withdrawals", validWithdrawal(nil)), ok},
		{"v1 withdrawal conflict", post("/api/v1/withdrawals", validWithdrawal(map[string]string{"amount": "1.00"})), []int{http.StatusConflict}},
		{"v1 withdrawal", post("/api/v1/withdrawals", validWithdrawal(map[string]string{"external_id": `"saque-2"`, "amount": "1.00"})), []int{http.StatusCreated, http.StatusOK}},
		{"v1 withdrawal too large", post("/api/v1/withdrawals", validWithdrawal(map[string]string{"external_id": `"saque-3"`, "amount": "5000.00"})), []int{http.StatusUnprocessableEntity}},
		{"v1 withdrawal get", get("/api/v1/withdrawals/" + wd.str("id")), ok},
		{"v1 withdrawals", get("/api/v1/withdrawals"), ok},
		{"v2 token", func() reply {
			return e.postToken(nil, "Authorization", basicAuth(keyPair(v1)), "Content-Type", "")
		}, ok},
		{"v2 balance", func() reply { return e.v2("/v2/balance", token, `{}`) }, ok},
		{"v2 qrcode replay", func() reply { return e.v2("/v2/pix/qrcode", token, familyCharge("pedido-pago", "50")) }, ok},
		{"v2 payment", payment("2.00", "pag-1"), ok},
		{"v2 payment conflict", payment("3.00", "pag-1"), []int{http.StatusConflict}},
		{"v2 refund", refund("5", "estorno-1"), ok},
		{"v2 refund conflict", refund("6", "estorno-1"), []int{http.StatusConflict}},
		{"v2 refund above the charge", refund("49", "estorno-2"), []int{http.StatusUnprocessableEntity}},
		{"v2 consult", func() reply { return e.v2("/v2/consult-transaction", token, `{"pix_id": "`+pixID+`"}`) }, ok},
		{"webhook", notify("PAID"), ok},
		{"webhook other status", notify("EXPIRED"), ok},
		{"webhook at /pix", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/t0k3n/pix", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook of another provider", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/b/"+ProviderWebhookToken("t0k3n", "b"), "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook at /rec", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/t0k3n/rec", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook of another provider at /rec", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/b/"+ProviderWebhookToken("t0k3n", "b")+"/rec", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook at /cobr", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/t0k3n/cobr", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook of another provider at /cobr", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/b/"+ProviderWebhookToken("t0k3n", "b")+"/cobr", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "PAID"}}`)
		}, ok},
		{"webhook of another provider at /pix", func() reply {
			return e.call(http.MethodPost, "/webhooks/provider/b/"+ProviderWebhookToken("t0k3n", "b")+"/pix", "", `{"requestBody": {"transactionType": "RECEIVEPIX",
				"transactionId": "`+pixID+`", "status": "EXPIRED"}}`)
		}, ok},
		{"v1 refund replay", v1Refund("1"), ok},
		{"v1 refund conflict", v1Refund("2"), []int{http.StatusConflict}},
		{"v1 refunds", get("/api/v1/charges/pedido-pago/refunds"), ok},
		{"readyz", func() reply { return e.call(http.MethodGet, "/readyz", "", nil) }, ok},
		{"v1 infractions", get("/api/v1/infractions?status=OPEN"), ok},
		{"v1 infraction", get("/api/v1/infractions/" + inf.String()), ok},
		{"v1 defense", post("/api/v1/infractions/"+inf.String()+"/defense", `{"text": "autorizado"}`), []int{http.StatusOK, http.StatusConflict}},
		// The sandbox of this env serves no lookup (no extensions): 501 is its answer.
		{"v1 key lookup", get("/api/v1/pix-keys/" + validCPF), []int{http.StatusOK, http.StatusNotImplemented}},
		{"v1 webhook events", get("/api/v1/webhook-events"), ok},
		{"v1 webhook endpoints", get("/api/v1/webhook-endpoints"), ok},
		{"v1 webhook endpoint pause", post("/api/v1/webhook-endpoints/pause", `{"url": "https://loja.example/pausada"}`), ok},
		{"v1 webhook endpoint resume", post("/api/v1/webhook-endpoints/resume", `{"url": "https://loja.example/pausada"}`),
			[]int{http.StatusOK, http.StatusNotFound}},
		{"v1 sub-account create", post("/api/v1/sub-accounts", `{"name": "Vendedor", "email": "vendedor@loja.example"}`),
			[]int{http.StatusCreated, http.StatusConflict}},
		{"v1 sub-accounts", get("/api/v1/sub-accounts"), ok},
		{"v1 sub-account", get("/api/v1/sub-accounts/" + strconv.FormatInt(in.ID, 10)), []int{http.StatusNotFound}},
		{"v1 postbacks", get("/api/v1/postbacks?status=PENDING"), ok},
		{"v1 postback", get("/api/v1/postbacks/" + inf.String()), []int{http.StatusNotFound}},
		{"v1 postback replay", post("/api/v1/postbacks/"+inf.String()+"/replay", ""), []int{http.StatusNotFound}},
		{"v1 postbacks replay", post("/api/v1/postbacks/replay", `{"since": "2020-01-01T00:00:00Z", "until": "2099-01-01T00:00:00Z"}`),
			[]int{http.StatusAccepted}},
	}
	calls = append(calls, payoutPoolCalls(t, e, in.ID, v1)...)
	// Replays of the refund, the one path that needed two: as many at once
	// as the test sends of everything else.
	for i := range 12 {
		calls = append(calls, poolCall{fmt.Sprint("v2 refund replay ", i), refund("5", "estorno-1"), ok})
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	start := make(chan struct{})
	for _, c := range calls {
		for range 2 {
			wg.Go(func() {
				<-start
				r := c.send()
				if !slices.Contains(c.status, r.status) {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("%s: %d %.200s", c.name, r.status, r.raw))
					mu.Unlock()
				}
			})
		}
	}
	close(start)
	wg.Wait()
	if len(failed) > 0 {
		slices.Sort(failed)
		t.Fatalf("%d answers not as expected on a pool of one connection:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	if v, err := e.db.Audit(t.Context()); err != nil || len(v) > 0 {
		t.Fatalf("audit %v %v", v, err)
	}
	// Every endpoint that reads input is among them (the documentation's
	// files read no database): a new one fails here until it is added.
	taken := routesLogged(t, e.logs.String())
	for _, ep := range corpusRoutes().endpoints {
		if !taken[ep] && ep != "GET "+pathDocs+"/*" {
			t.Errorf("no request of the pool-of-one test takes %s", ep)
		}
	}
}

// routesLogged is every "METHOD /route" the access log recorded.
func routesLogged(t *testing.T, logs string) map[string]bool {
	t.Helper()
	taken := map[string]bool{}
	for _, line := range strings.Split(logs, "\n") {
		var l struct{ Msg, Method, Route string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "http request" {
			taken[l.Method+" "+l.Route] = true
		}
	}
	return taken
}
