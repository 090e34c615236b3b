// Package wooviapitest checks traffic against Woovi's published OpenAPI
// document (testdata/openapi.yml, "OpenPix" 1.0.0, two defects of its
// subscriptions corrected): every request the woovi connector sends and
// every answer the sandbox's woovi face returns, on the routes PixGate
// uses.
package wooviapitest

import (
	_ "embed"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/pixgate/pixgate/docs/openapitest"
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
	*openapitest.Traffic
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
	traffic, err := openapitest.NewTraffic("Woovi API "+Version, doc, base,
		openapi3.DisableSchemaDefaultsValidation(), openapi3.DisableExamplesValidation())
	if err != nil {
		return nil, err
	}
	return &Validator{Traffic: traffic}, nil
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
var ErrNotInSpec = openapitest.ErrNotInDocument

// Transport checks every request it carries and every answer, failing T on
// a mismatch (a route the document does not describe among them). Server
// errors are not checked: the document declares none, and the sandbox's
// faults inject them.
type Transport struct {
	T    testing.TB
	V    *Validator
	Next http.RoundTripper
}

func (tr *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	return tr.V.RoundTrip(tr.T, req, tr.Next, openapitest.Wire{SkipServerErrors: true})
}
