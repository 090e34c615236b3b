// Package openapitest checks real traffic against OpenAPI documents:
// PixGate's own, docs/openapi.yaml (answers of the API and bodies of
// postbacks must match the schemas integrators generate their clients
// from), and, through Traffic, the providers' published ones.
package openapitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/pixgate/pixgate/docs"
)

// Load parses and validates the document, examples included.
func Load(t testing.TB) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(docs.OpenAPI)
	if err != nil {
		t.Fatalf("docs/openapi.yaml does not parse: %v", err)
	}
	if err := doc.Validate(loader.Context, openapi3.EnableExamplesValidation()); err != nil {
		t.Fatalf("docs/openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("docs/openapi.yaml is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	return doc
}

// Validator checks answers from one server against the document.
type Validator struct {
	traffic *Traffic
}

var registerDecoders sync.Once

// New builds a validator for the API served at baseURL.
func New(t testing.TB, baseURL string) *Validator {
	t.Helper()
	registerDecoders.Do(func() {
		text := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(body)
			return string(b), err
		}
		openapi3filter.RegisterBodyDecoder("application/yaml", text)
		openapi3filter.RegisterBodyDecoder("text/html", text)
	})
	traffic, err := NewTraffic("docs/openapi.yaml", Load(t), baseURL)
	if err != nil {
		t.Fatalf("openapitest: %v", err)
	}
	return &Validator{traffic: traffic}
}

// Response fails the test unless the document describes the request's
// route and method, the answer's status, and the answer's body matches its
// schema. req is the request as sent (its body is not read).
func (v *Validator) Response(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	err := v.traffic.Response(req, status, header, body)
	switch {
	case errors.Is(err, ErrNotInDocument):
		t.Errorf("openapi: %s %s is not in docs/openapi.yaml: %v", req.Method, req.URL.Path, err)
	case err != nil:
		t.Errorf("openapi: %s %s answered %d, which docs/openapi.yaml does not describe: %v\nbody: %s",
			req.Method, req.URL.Path, status, err, body)
	}
}

// Webhook checks a postback body against a loaded document: the body of
// components.callbacks[name], the one callback the create operations refer
// to for that kind of postback.
func Webhook(t testing.TB, doc *openapi3.T, name string, body []byte) {
	t.Helper()
	item := postbackItem(doc, name)
	if item == nil || item.Post == nil || item.Post.RequestBody == nil {
		t.Fatalf("openapi: no postback callback %q in docs/openapi.yaml", name)
	}
	media := item.Post.RequestBody.Value.Content.Get("application/json")
	if err := Body(media.Schema.Value, body, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("openapi: %s postback does not match docs/openapi.yaml: %v\nbody: %s", name, err, body)
	}
}

// postbackItem is the path item of the postback callback name, whatever its
// URL expression.
func postbackItem(doc *openapi3.T, name string) *openapi3.PathItem {
	cb := doc.Components.Callbacks[name]
	if cb == nil || cb.Value == nil {
		return nil
	}
	for _, item := range cb.Value.Map() {
		return item
	}
	return nil
}

// numbersToFloats turns json.Number into float64, which the validator
// expects for numbers.
func numbersToFloats(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			panic(fmt.Sprintf("openapitest: %v", err))
		}
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbersToFloats(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbersToFloats(e)
		}
	}
	return v
}

// Routes lists every "METHOD /path" the document describes, paths as the
// document writes them ("/api/v1/charges/{charge}").
func Routes(doc *openapi3.T) []string {
	var out []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	return out
}
