package api

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// GET / showed a browser a JSON object; a browser (asking for HTML) is now
// sent to /docs, a program still gets the pointers as JSON.
func TestRootSendsBrowsersToTheDocs(t *testing.T) {
	e := newEnv(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		accept   string
		redirect bool
	}{
		{"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8", true}, // a browser's
		{"text/html", true},
		{"*/*", false}, // curl's
		{"application/json", false},
		{"", false},
	} {
		req, _ := http.NewRequest(http.MethodGet, e.url+"/", nil)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tc.redirect {
			if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/docs" {
				t.Errorf("Accept %q: %d to %q, want 302 to /docs", tc.accept, resp.StatusCode, resp.Header.Get("Location"))
			}
		} else if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"docs":"/docs"`) {
			t.Errorf("Accept %q: %d %s, want the JSON pointers", tc.accept, resp.StatusCode, body)
		}
	}
}

// /docs was blank without JavaScript; it now says where the document is.
func TestDocsPageHasANoScriptFallback(t *testing.T) {
	e := newEnv(t)
	page := e.call(http.MethodGet, "/docs", "", nil).expect(t, 200).raw
	start, end := strings.Index(page, "<noscript>"), strings.Index(page, "</noscript>")
	if start < 0 || end < start || !strings.Contains(page[start:end], `<a href="/openapi.yaml">`) {
		t.Fatalf("/docs has no <noscript> pointing at /openapi.yaml:\n%s", page)
	}
}

// A 413 said only "Request body too large"; it now states the limit.
func TestPayloadTooLargeStatesTheLimit(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja", money.Fixed(0), money.Fixed(0))
	r := e.oversized("/api/v1/charges", token, 70<<10).expectError(t, 413, codePayloadTooLarge)
	if want := "the limit is 65536 bytes"; !strings.Contains(r.raw, want) {
		t.Fatalf("413 body %s lacks %q", r.raw, want)
	}
}

// /docs's server list showed "This PixGate (with `pixgate dev`,
// http://127.0.0.1:8080)", backticks and all, whatever address served it.
func TestTheDocumentsServerIsTheOneServingIt(t *testing.T) {
	e := newEnv(t)
	doc := e.call(http.MethodGet, "/openapi.yaml", "", nil).expect(t, 200).raw
	_, rest, ok := strings.Cut(doc, "\nservers:\n")
	var servers string
	for line := range strings.SplitSeq(rest, "\n") {
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-") {
			break // the next top-level key
		}
		servers += line + "\n"
	}
	if !ok || !strings.Contains(servers, "- url: /\n") || strings.ContainsAny(servers, "`") || strings.Contains(servers, "8080") {
		t.Fatalf("servers entry:\n%s", servers)
	}
}
