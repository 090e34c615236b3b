package api

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// raw sends a request exactly as written and reads one answer. The deadline
// is well under the server's 15 s read timeout, so a server that waits for
// a body that never comes fails the test instead of answering 408.
func (e *env) raw(request string) reply {
	e.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(8 * time.Second))
	// The server may answer and close before it has read everything (413,
	// an unreadable head): a failed write is not the test's failure, the
	// answer is.
	_, _ = conn.Write([]byte(request))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		e.t.Fatalf("no answer to %.60q: %v", request, err)
	}
	return readReply(e.t, resp)
}

// A request fasthttp cannot read is answered in the error shape with a
// fixed message: fasthttp's own quotes the whole request head, bearer
// secret and webhook token included.
func TestUnreadableRequestEchoesNothing(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	_, token := e.integrator("Loja Cabeça", money.Percent(0), money.Fixed(0))
	for _, head := range []string{
		"POST /api/v1/charges HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token + "\r\nContent-Length: -1\r\n\r\n",
		"POST /api/v1/charges HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token + "\r\nContent-Length: abc\r\n\r\n",
		"POST /webhooks/provider/t0k3n HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n",
		"POST /webhooks/provider/t0k3n HTTP/1.1\r\nHost: x\r\nBad Header: " + token + "\r\n\r\n",
	} {
		r := e.raw(head).expectError(t, http.StatusBadRequest, codeBadRequest)
		secret := token[strings.IndexByte(token, '.')+1:]
		for _, leak := range []string{secret, "t0k3n", "Authorization", "Buffer size", "Content-Length: "} {
			if strings.Contains(r.raw, leak) {
				t.Fatalf("answer to %.40q echoes %q: %s", head, leak, r.raw)
			}
		}
	}
}

// Two different Content-Length values, or Content-Length with
// Transfer-Encoding, are refused as soon as the head is read: a proxy that
// reads the other length would let a second request through.
func TestAmbiguousLengthRefusedAtOnce(t *testing.T) {
	e := newEnv(t, withWebhookToken)
	_, token := e.integrator("Loja Tamanho", money.Percent(0), money.Fixed(0))
	body := `{"amount": 1}`
	for name, head := range map[string]string{
		"two lengths": "Content-Length: 13\r\nContent-Length: 200\r\n",
		"length, TE":  "Content-Length: 13\r\nTransfer-Encoding: chunked\r\n",
		"TE, length":  "Transfer-Encoding: chunked\r\nContent-Length: 13\r\n",
	} {
		for _, path := range []string{"/api/v1/withdrawals", "/webhooks/provider/t0k3n"} {
			r := e.raw("POST " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token +
				"\r\nContent-Type: application/json\r\n" + head + "\r\n" + body)
			if r.status != http.StatusBadRequest || !strings.Contains(r.str("message"), "ambiguous") {
				t.Fatalf("%s on %s: %d %s", name, path, r.status, r.raw)
			}
		}
	}
	// The same length twice is one length.
	e.raw("POST /webhooks/provider/wrong HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}").
		expectError(t, http.StatusNotFound, codeNotFound)
	if n := e.count(`SELECT (SELECT count(*) FROM withdrawals) + (SELECT count(*) FROM provider_events)`); n != 0 {
		t.Fatalf("refused requests wrote %d rows", n)
	}
}

// A method no route takes is a JSON 405 naming the methods that work, for
// methods Fiber knows and for ones it does not.
func TestWrongMethodIs405WithAllow(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Métodos", money.Percent(0), money.Fixed(0))
	for _, c := range []struct{ method, path, allow string }{
		{"DELETE", "/api/v1/charges", "GET, HEAD, POST"},
		{"PUT", "/api/v1/charges/abc/", "GET, HEAD"},
		{"FOO", "/api/v1/charges", "GET, HEAD, POST"},
		{"PROPFIND", "/webhooks/provider/x", "POST"},
		{"POST", "/docs/index.html", "GET, HEAD"},
	} {
		r := e.call(c.method, c.path, token, nil).expectError(t, http.StatusMethodNotAllowed, codeMethodNotAllowed)
		if got := r.header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	e.call("FOO", "/nowhere", token, nil).expectError(t, http.StatusNotFound, codeNotFound)
	e.call(http.MethodGet, "/docs/nonexistent.js", "", nil).expectError(t, http.StatusNotFound, codeNotFound)
	if strings.Contains(e.logs.String(), `"method":"FOO"`) {
		t.Error("an unknown method reached the logs as sent")
	}
}
