package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// Heads whose reading depends on the reader are refused with a 400 in the
// error shape: a header line folded onto the next (obs-fold) or ended by a
// bare LF, whitespace before the first header, a request line naming an
// HTTP version PixGate does not speak. They used to be taken as they came.
func TestHeadsReadDifferentlyAreRefused(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	for name, request := range map[string]string{
		"obs-fold":        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n",
		"folded length":   "POST /webhooks/provider/t0k3n HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n 2\r\n\r\n{}",
		"bare LF":         "GET /healthz HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n",
		"bare LF only":    "GET /healthz HTTP/1.1\nHost: x\nX-A: b\n\n",
		"leading space":   "GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n",
		"HTTP/9.9":        "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
		"HTTP/2.0":        "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n",
		"lower-case name": "GET /healthz http/1.1\r\nHost: x\r\n\r\n",
	} {
		r := e.raw(request)
		if r.status != http.StatusBadRequest || r.str("code") != codeBadRequest || r.str("request_id") == "" {
			t.Errorf("%s: %d %s", name, r.status, r.raw)
		}
	}
	e.raw("GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n").expect(t, http.StatusOK)
	if n := e.count(`SELECT count(*) FROM provider_events`); n != 0 {
		t.Fatalf("refused requests wrote %d rows", n)
	}
}

// A body that is not JSON is a 400 that says where, never in the words of
// Go's JSON decoder ("invalid character 'x' looking for beginning of
// value"), which describe the parser, not the request.
func TestMalformedJSONMessageIsPixGates(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Sintaxe", money.Percent(0), money.Fixed(0))
	for _, body := range []string{`{"amount": x}`, `{"amount" 1}`, `{"a": 1,}`, `{"a": "b"]`} {
		r := e.call(http.MethodPost, "/api/v1/charges", token, body).expectError(t, http.StatusBadRequest, codeMalformedJSON)
		msg := r.str("message")
		for _, leak := range []string{"invalid character", "looking for", "after object key", "after top-level value", "'"} {
			if strings.Contains(msg, leak) {
				t.Errorf("%s: message %q quotes the decoder (%q)", body, msg, leak)
			}
		}
		if !strings.Contains(msg, "at byte") {
			t.Errorf("%s: message %q does not say where", body, msg)
		}
	}
}
