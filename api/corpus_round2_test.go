package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/storage"
)

// The second round of hostile input: what the wedged pool, the proxy
// header, the notification storm, proxy-spelled addresses and the text,
// JSON and head findings were found with. The corpus runs behind a trusted
// proxy (the test client, 127.0.0.1) that writes X-Real-IP, as deployed.

// corpusProxy is the corpus's proxy setting.
func corpusProxy(s *setup) {
	s.cfg.ProxyHeader, s.cfg.TrustedProxies = "X-Real-IP", []string{"127.0.0.1"}
}

// corpusAllowlisted is the network the corpus's allowlisted key is bound
// to; no probe comes from it.
const corpusAllowlisted = "10.9.9.9/32"

// corpusTargets are the records and credentials round 2 aims at, made
// before the snapshot.
type corpusTargets struct {
	allowlisted string // v1 token of a key bound to corpusAllowlisted
	paidPixID   string // a paid charge, refunded once with external_id refundExternal
	refundBody  string // that refund's request
	storm       string // a notification stored once, still queued
}

const corpusRefundExternal = "corpus-estorno"

// round2Targets creates the targets: a key bound to an address, a paid
// charge refunded once through /v2, a notification stored and queued.
func round2Targets(t *testing.T, e *env, in storage.Integrator, v1, accessToken string) corpusTargets {
	t.Helper()
	var c corpusTargets
	c.allowlisted = e.keyAllowing(in.ID, corpusAllowlisted)
	paid := e.call(http.MethodPost, "/api/v1/charges", v1, validCharge(map[string]string{"external_id": `"corpus-pago"`})).
		expect(t, http.StatusCreated)
	c.paidPixID = paid.str("pix_id")
	e.markPaid(in.ID, c.paidPixID)
	c.refundBody = `{"pix_id": "` + c.paidPixID + `", "amount": 1, "external_id": "` + corpusRefundExternal + `"}`
	e.v2("/v2/pix/refund", accessToken, c.refundBody).expect(t, http.StatusOK)
	c.storm = `{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "corpus-storm", "status": "PENDING"}}`
	e.call(http.MethodPost, "/webhooks/provider/"+corpusWebhookToken, "", c.storm).expect(t, http.StatusOK)
	return c
}

// round2Probes are the round's inputs that must be refused (4xx).
func round2Probes(s corpusSecrets, c corpusTargets) []probe {
	var ps []probe
	// An allowlisted key from addresses it is not bound to, however the
	// address is spelled or forged, and with the header a client may not
	// set.
	for i, h := range [][]string{
		{"X-Forwarded-For", "10.9.9.9"},
		{"X-Real-IP", ""},
		{"X-Real-IP", "garbage"},
		{"X-Real-IP", "0.0.0.0"},
		{"X-Real-IP", "10.9.9.9%eth0"},
		{"X-Real-IP", "::ffff:10.9.9.8"},
		{"X-Real-IP", "[::ffff:10.9.9.8]:443"},
		{"X-Real-IP", "fe80::1%eth0"},
		{"X-Real-IP", "10.9.9.9, 10.9.9.8"},
		{"X-Real-IP", "10.9.9.9,,"},
	} {
		ps = append(ps, probe{name: fmt.Sprintf("allowlisted key, address #%c", 'a'+i), method: http.MethodGet,
			path: "/api/v1/balance", token: c.allowlisted, headers: h})
	}
	// Free text hiding characters.
	for name, text := range map[string]string{
		"zero width":      "Re\u200Bpasse",
		"tag characters":  "Repasse\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065",
		"word joiner":     "Pedido\u2060 1",
		"BOM":             "\uFEFFPedido",
		"soft hyphen":     "Pe\u00ADdido",
		"lone joiner":     "Pe\u200Ddido",
		"flag tags unend": "\U0001F3F4\U000E0067\U000E0062",
	} {
		q := jsonQuote(text)
		ps = append(ps,
			probe{name: "POST /api/v1/charges: payerQuestion, " + name, method: http.MethodPost, path: "/api/v1/charges", token: s.v1Token,
				body: validCharge(map[string]string{"external_id": `"corpus-q"`, "payerQuestion": q})},
			probe{name: "POST /api/v1/withdrawals: description, " + name, method: http.MethodPost, path: "/api/v1/withdrawals", token: s.v1Token,
				body: validWithdrawal(map[string]string{"external_id": `"corpus-d"`, "description": q})},
			probe{name: "POST /v2/pix/qrcode: payerQuestion, " + name, method: http.MethodPost, path: "/v2/pix/qrcode", token: s.accessToken,
				body: `{"amount": 10, "external_id": "corpus-q2", "payerQuestion": ` + q + `, "payer": {"name": "Fulano", "document": "` + validCPF + `"}}`},
			probe{name: "POST /v2/pix/refund: description, " + name, method: http.MethodPost, path: "/v2/pix/refund", token: s.accessToken,
				body: `{"pix_id": "` + c.paidPixID + `", "amount": 1, "external_id": "corpus-r2", "description": ` + q + `}`},
		)
	}
	// Heads that read two ways, each with a body that would be accepted.
	withdrawal := validWithdrawal(map[string]string{"external_id": `"corpus-head"`})
	for _, ep := range []struct{ name, method, path, token, body string }{
		{"POST /api/v1/withdrawals", http.MethodPost, "/api/v1/withdrawals", s.v1Token, withdrawal},
		{"GET /api/v1/balance", http.MethodGet, "/api/v1/balance", s.v1Token, ""},
		{"POST /v2/balance", http.MethodPost, "/v2/balance", s.accessToken, "{}"},
		{"webhook", http.MethodPost, "/webhooks/provider/" + s.webhookToken, "", `{"transactionType": "RECEIVEPIX", "transactionId": "corpus-head", "status": "PAID"}`},
	} {
		ps = append(ps, headProbes(ep.name, ep.method, ep.path, ep.token, ep.body)...)
	}
	return ps
}

// headProbes: obs-fold, bare LF, whitespace before the first header and
// versions PixGate does not speak, each around a request that is fine
// otherwise.
func headProbes(endpoint, method, path, token, body string) []probe {
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	length := fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	line := func(version string) string { return method + " " + path + " " + version + "\r\n" }
	raws := map[string]string{
		"obs-fold":      line("HTTP/1.1") + "Host: pixgate.test\r\n" + auth + "X-Folded: a\r\n b\r\n" + length + "\r\n" + body,
		"folded length": line("HTTP/1.1") + "Host: pixgate.test\r\n" + auth + strings.Replace(length, "Length: ", "Length:\r\n ", 1) + "\r\n" + body,
		"bare LF":       line("HTTP/1.1") + "Host: pixgate.test\n" + auth + length + "\r\n" + body,
		"leading space": line("HTTP/1.1") + " Host: pixgate.test\r\n" + auth + length + "\r\n" + body,
		"HTTP/9.9":      line("HTTP/9.9") + "Host: pixgate.test\r\n" + auth + length + "\r\n" + body,
		"HTTP/2.0":      line("HTTP/2.0") + "Host: pixgate.test\r\n" + auth + length + "\r\n" + body,
		"http/1.1":      line("http/1.1") + "Host: pixgate.test\r\n" + auth + length + "\r\n" + body,
	}
	if auth != "" {
		raws["folded credentials"] = line("HTTP/1.1") + "Host: pixgate.test\r\nX-A: 1\r\n" + strings.Replace(auth, " ", "\r\n ", 1) + length + "\r\n" + body
	}
	var ps []probe
	for name, raw := range raws {
		ps = append(ps, probe{name: endpoint + ": " + name, raw: raw})
	}
	return ps
}

// round2Inert are inputs that are answered 200 and must change nothing:
// sixty identical replays of a refund at once (they wedged the pool), and
// a storm of copies of a queued notification.
func round2Inert(t *testing.T, e *env, s corpusSecrets, c corpusTargets) {
	t.Helper()
	burst := func(name string, n int, send func() reply) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		statuses := map[int]int{}
		for range n {
			wg.Go(func() {
				r := send()
				mu.Lock()
				statuses[r.status]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if statuses[http.StatusOK] != n {
			t.Errorf("%s: answers %v, want %d × 200", name, statuses, n)
		}
	}
	burst("60 identical refund replays", 60, func() reply { return e.v2("/v2/pix/refund", s.accessToken, c.refundBody) })
	burst("a storm of one notification", 100, func() reply {
		return e.call(http.MethodPost, "/webhooks/provider/"+s.webhookToken, "", c.storm)
	})
	burst("v1 withdrawal replays", 20, func() reply {
		return e.call(http.MethodPost, "/api/v1/withdrawals", s.v1Token, validWithdrawal(nil))
	})
	var queued int
	_ = e.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM provider_events WHERE transaction_id = 'corpus-storm'`).Scan(&queued)
	if queued != 1 {
		t.Errorf("the storm stored %d events, want the one stored before it", queued)
	}
}
