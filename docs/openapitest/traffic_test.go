package openapitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const tinyDoc = `openapi: 3.0.3
info: {title: tiny, version: "1"}
paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [n], properties: {n: {type: integer}}}
      responses:
        "201":
          description: made
          content:
            application/json:
              schema: {type: object, required: [id], properties: {id: {type: string}}}
`

// recorder is a testing.TB that keeps the failures.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// The traffic checker fails what the document does not describe: a
// request or an answer off its schema, a route it lacks (unless lenient),
// a server error (unless skipped); and counts what it checked by route.
func TestTrafficRoundTrip(t *testing.T) {
	answer := `{"id": "x"}`
	status := http.StatusCreated
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	defer srv.Close()
	doc, err := openapi3.NewLoader().LoadFromData([]byte(tinyDoc))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewTraffic("tiny 1", doc, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	send := func(path, body string, w Wire) []string {
		rec := &recorder{TB: t}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.RoundTrip(rec, req, http.DefaultTransport, w)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return rec.errs
	}
	if errs := send("/things", `{"n": 1}`, Wire{}); len(errs) != 0 {
		t.Fatalf("conforming traffic: %v", errs)
	}
	if errs := send("/things", `{"n": "one"}`, Wire{}); len(errs) != 1 || !strings.Contains(errs[0], "tiny 1: request POST /things does not conform") {
		t.Fatalf("a request off the schema: %v", errs)
	}
	if errs := send("/other", `{}`, Wire{}); len(errs) != 1 || !strings.Contains(errs[0], "route not in the document") {
		t.Fatalf("a route the document lacks: %v", errs)
	}
	if errs := send("/other", `{}`, Wire{Lenient: true}); len(errs) != 0 {
		t.Fatalf("lenient: %v", errs)
	}
	answer = `{"name": "x"}`
	if errs := send("/things", `{"n": 1}`, Wire{}); len(errs) != 1 || !strings.Contains(errs[0], "answer 201") {
		t.Fatalf("an answer off the schema: %v", errs)
	}
	status = http.StatusBadGateway
	if errs := send("/things", `{"n": 1}`, Wire{SkipServerErrors: true}); len(errs) != 0 {
		t.Fatalf("a server error, skipped: %v", errs)
	}
	if errs := send("/things", `{"n": 1}`, Wire{}); len(errs) != 1 {
		t.Fatalf("a server error the document does not declare: %v", errs)
	}
	if n := c.Checked()["POST /things"]; n != 5 {
		t.Fatalf("checked %d requests of POST /things, want 5", n)
	}
}
