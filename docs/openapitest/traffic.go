package openapitest

import (
	"bytes"
	"context"
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
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Traffic checks requests and answers against one OpenAPI document served
// at a base URL: PixGate's own (New), and the providers' published ones
// (the efi and woovi connectors' checkers build theirs on it). It counts
// the requests it checked by the document's route.
type Traffic struct {
	name   string // the document, as failures name it: "BCB API Pix 2.9.0"
	router routers.Router

	mu      sync.Mutex
	checked map[string]int
}

// ErrNotInDocument: the route is not one the document describes.
var ErrNotInDocument = errors.New("route not in the document")

// NewTraffic builds a checker of doc's routes served at base; opts are
// the router's checks of the document itself.
func NewTraffic(name string, doc *openapi3.T, base string, opts ...openapi3.ValidationOption) (*Traffic, error) {
	doc.Servers = openapi3.Servers{{URL: strings.TrimRight(base, "/")}}
	router, err := legacy.NewRouter(doc, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Traffic{name: name, router: router, checked: map[string]int{}}, nil
}

// Name is the document as failures name it.
func (c *Traffic) Name() string { return c.name }

func (c *Traffic) input(req *http.Request) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("%w (%s): %s %s", ErrNotInDocument, c.name, req.Method, req.URL.Path)
	}
	return &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}, nil
}

// Request checks a request and its body (req's own body is not read).
func (c *Traffic) Request(req *http.Request, body []byte) error {
	in, err := c.input(req)
	if err != nil {
		return err
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	in.Request = r
	c.mu.Lock()
	c.checked[req.Method+" "+in.Route.Path]++
	c.mu.Unlock()
	return openapi3filter.ValidateRequest(context.Background(), in)
}

// Response checks an answer (status, headers, body) to req.
func (c *Traffic) Response(req *http.Request, status int, header http.Header, body []byte) error {
	in, err := c.input(req)
	if err != nil {
		return err
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// Checked returns how many requests were checked, by the document's route
// ("POST /cob/{txid}").
func (c *Traffic) Checked() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.checked))
	for k, n := range c.checked {
		out[k] = n
	}
	return out
}

// Wire says how RoundTrip treats what the document does not describe.
type Wire struct {
	// Lenient lets requests to routes the document does not describe pass
	// unchecked (a provider's own routes beside a standard's).
	Lenient bool
	// SkipServerErrors leaves 5xx answers unchecked (a document that
	// declares none, and a sandbox whose faults inject them).
	SkipServerErrors bool
}

// RoundTrip carries req over next, failing t on a request or an answer
// the document does not describe.
func (c *Traffic) RoundTrip(t testing.TB, req *http.Request, next http.RoundTripper, w Wire) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	err := c.Request(req, body)
	inDoc := !errors.Is(err, ErrNotInDocument)
	if err != nil && (inDoc || !w.Lenient) {
		t.Errorf("%s: request %s %s does not conform: %v\nbody: %s", c.name, req.Method, req.URL.Path, err, body)
	}
	resp, err := next.RoundTrip(req)
	if err != nil || !inDoc {
		return resp, err
	}
	rb, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr != nil {
		return nil, rerr
	}
	resp.Body = io.NopCloser(bytes.NewReader(rb))
	if w.SkipServerErrors && resp.StatusCode >= 500 {
		return resp, nil
	}
	if verr := c.Response(req, resp.StatusCode, resp.Header, rb); verr != nil {
		t.Errorf("%s: answer %d to %s %s does not conform: %v\nbody: %s", c.name, resp.StatusCode, req.Method, req.URL.Path, verr, rb)
	}
	return resp, nil
}

// Body checks a JSON body (a webhook's, a postback's) against schema; its
// numbers are read exactly, then as the validator expects them.
func Body(schema *openapi3.Schema, body []byte, opts ...openapi3.SchemaValidationOption) error {
	var value any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	return schema.VisitJSON(numbersToFloats(value), append(opts, openapi3.MultiErrors())...)
}
