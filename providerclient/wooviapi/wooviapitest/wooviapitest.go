// Package wooviapitest checks traffic against Woovi's published OpenAPI
// document (testdata/openapi.yml, "OpenPix" 1.0.0, two defects of its
// subscriptions corrected): every request the woovi connector sends and
// every answer the sandbox's woovi face returns, on the routes PixGate
// uses.
package wooviapitest

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

//go:embed testdata/openapi.yml
var spec []byte

// Version is the vendored document's version.
const Version = "1.0.0"

// Paths are the routes PixGate uses, the ones checked.
var Paths = []string{"/api/v1/charge", "/api/v1/charge/{id}", "/api/v1/charge/{id}/refund", "/api/v1/refund/{id}",
	"/api/v1/payment", "/api/v1/payment/{id}", "/api/v1/account/", "/api/v1/transaction",
	"/api/v1/subscriptions", "/api/v1/subscriptions/{id}", "/api/v1/subscriptions/{id}/cancel",
	"/api/v1/subscriptions/{id}/installments", "/api/v1/installments/{id}", "/api/v1/installments/{id}/cobr"}

// Validator checks requests and answers of a Woovi API served at a base URL.
type Validator struct {
	router routers.Router

	mu      sync.Mutex
	checked map[string]int
}

// New builds a validator for the API at base. Only the routes PixGate uses
// are kept: others in the published document do not pass kin-openapi's
// checks of the document itself (a path parameter declared in no path), and
// are not what is being checked.
func New(base string) (*Validator, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, err
	}
	if doc.Info.Version != Version {
		return nil, fmt.Errorf("vendored document is %s, want %s", doc.Info.Version, Version)
	}
	keep := map[string]bool{}
	for _, p := range Paths {
		keep[p] = true
	}
	for _, p := range doc.Paths.InMatchingOrder() {
		if !keep[p] {
			doc.Paths.Delete(p)
		}
	}
	correctSubscriptions(doc)
	closeRequestBodies(doc)
	doc.Servers = openapi3.Servers{{URL: strings.TrimRight(base, "/")}}
	router, err := legacy.NewRouter(doc, openapi3.DisableSchemaDefaultsValidation(), openapi3.DisableExamplesValidation())
	if err != nil {
		return nil, err
	}
	return &Validator{router: router, checked: map[string]int{}}, nil
}

// closeRequestBodies closes every object of the kept routes' request
// bodies that the document leaves open (additionalProperties unsaid): a
// request field the document does not name fails the check, so the
// connector sends Woovi's fields only (a due-date charge's among them),
// never one of its own making. Answers stay open: Woovi's carry more than
// the document names. Of composed schemas, only a oneOf or anyOf whose
// parts all name the same fields (CustomerPayload's differ only in what
// they require) is closed, part by part; others are left as they are,
// each part naming only some of the fields.
func closeRequestBodies(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				closeObject(mt.Schema, seen)
			}
		}
	}
}

func closeObject(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	if parts := append(slices.Clone(s.OneOf), s.AnyOf...); len(parts)+len(s.AllOf) > 0 {
		if len(s.AllOf) == 0 && sameFields(parts) {
			for _, p := range parts {
				closeObject(p, seen)
			}
		}
		return
	}
	if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
		closed := false
		s.AdditionalProperties.Has = &closed
	}
	for _, p := range s.Properties {
		closeObject(p, seen)
	}
	closeObject(s.Items, seen)
}

// sameFields reports whether every part names the same properties.
func sameFields(parts openapi3.SchemaRefs) bool {
	names := func(r *openapi3.SchemaRef) []string {
		if r == nil || r.Value == nil {
			return nil
		}
		return slices.Sorted(maps.Keys(r.Value.Properties))
	}
	for _, p := range parts[1:] {
		if !slices.Equal(names(p), names(parts[0])) {
			return false
		}
	}
	return len(names(parts[0])) > 0
}

// ErrNotInSpec: the route is not one the document describes.
var ErrNotInSpec = errors.New("route not in Woovi's document")

func (v *Validator) input(req *http.Request) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := v.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %s", ErrNotInSpec, req.Method, req.URL.Path)
	}
	return &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}, nil
}

// Request checks a request and its body.
func (v *Validator) Request(req *http.Request, body []byte) error {
	in, err := v.input(req)
	if err != nil {
		return err
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	in.Request = r
	v.mu.Lock()
	v.checked[req.Method+" "+in.Route.Path]++
	v.mu.Unlock()
	return openapi3filter.ValidateRequest(context.Background(), in)
}

// Response checks an answer to req.
func (v *Validator) Response(req *http.Request, status int, header http.Header, body []byte) error {
	in, err := v.input(req)
	if err != nil {
		return err
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), out)
}

// Checked returns how many requests were checked, by route.
func (v *Validator) Checked() map[string]int {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := make(map[string]int, len(v.checked))
	for k, n := range v.checked {
		out[k] = n
	}
	return out
}

// Transport checks every request it carries and every answer, failing T on
// a mismatch.
type Transport struct {
	T    testing.TB
	V    *Validator
	Next http.RoundTripper
}

func (tr *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	if err := tr.V.Request(req, body); err != nil {
		tr.T.Errorf("Woovi API %s: request %s %s does not conform: %v\nbody: %s", Version, req.Method, req.URL.Path, err, body)
	}
	resp, err := tr.Next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	rb, rerr := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rerr != nil {
		return nil, rerr
	}
	resp.Body = io.NopCloser(bytes.NewReader(rb))
	if resp.StatusCode >= 500 {
		return resp, nil // the document declares no server error; the sandbox's faults inject them
	}
	if verr := tr.V.Response(req, resp.StatusCode, resp.Header, rb); verr != nil {
		tr.T.Errorf("Woovi API %s: answer %d to %s %s does not conform: %v\nbody: %s", Version, resp.StatusCode, req.Method, req.URL.Path, verr, rb)
	}
	return resp, nil
}
