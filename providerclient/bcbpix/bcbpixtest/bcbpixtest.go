// Package bcbpixtest checks traffic against the Banco Central's published
// API Pix specification (testdata/openapi.yaml, 2.9.0): every request the
// efi connector sends and every answer the sandbox's efi face returns on a
// route the specification describes, and the webhook bodies. A connector
// and a simulated provider written by the same hands can share a
// misreading; the published specification cannot.
package bcbpixtest

import (
	_ "embed"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/pixgate/pixgate/docs/openapitest"
)

//go:embed testdata/openapi.yaml
var spec []byte

// Version is the vendored specification's version.
const Version = "2.9.0"

// Load parses the specification, with its known defects corrected and its
// patterns read as formats of the whole value (see testdata/README.md).
func Load() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(wholeValuePatterns(spec))
	if err != nil {
		return nil, err
	}
	if doc.Info.Version != Version {
		return nil, fmt.Errorf("vendored specification is %s, want %s", doc.Info.Version, Version)
	}
	// PixConsultados requires "cobs", a property it does not have: its list
	// is "pix" (see testdata/README.md).
	if s := doc.Components.Schemas["PixConsultados"]; s != nil && s.Value != nil {
		for i, r := range s.Value.Required {
			if r == "cobs" {
				s.Value.Required[i] = "pix"
			}
		}
	}
	// CobsConsultadas and CobsVConsultadas require of each charge an
	// "idCob" that no schema of the document declares and Efí's lists do
	// not carry (see testdata/README.md).
	for _, name := range []string{"CobsConsultadas", "CobsVConsultadas"} {
		dropIDCob(doc.Components.Schemas[name])
	}
	correctCobV(doc)
	correctRec(doc)
	correctCobR(doc)
	return doc, nil
}

func dropIDCob(s *openapi3.SchemaRef) {
	if s == nil || s.Value == nil {
		return
	}
	if items := s.Value.Properties["cobs"]; items != nil && items.Value != nil && items.Value.Items != nil && items.Value.Items.Value != nil {
		for _, part := range items.Value.Items.Value.AllOf {
			if part.Value != nil {
				part.Value.Required = slices.DeleteFunc(part.Value.Required, func(r string) bool { return r == "idCob" })
			}
		}
	}
}

// patternLine is a pattern of the document, as it writes every one: on a
// line of its own, double-quoted.
var patternLine = regexp.MustCompile(`(pattern: )"([^"\n]*)"`)

// wholeValuePatterns makes every pattern of the document match the whole
// value. The BCB writes some patterns anchored ("^[0-9A-Z]{8}$"), some in
// JavaScript's slashes (/^\d{11}$/, which as a JSON Schema pattern matches
// no value at all) and most bare (\d{1,10}\.\d{2}, which as a JSON Schema
// pattern matches any value containing an amount, "-25.000" included; and
// [a-zA-Z0-9]{26,35}, any txid of 26 letters and digits or more); its text
// says each is the value's format ("valores monetários obedecem ao pattern
// \d{1,10}\.\d{2}"). So the slashes are dropped and every pattern is
// anchored at both ends.
func wholeValuePatterns(doc []byte) []byte {
	return patternLine.ReplaceAllFunc(doc, func(line []byte) []byte {
		m := patternLine.FindSubmatch(line)
		p := string(m[2])
		if strings.HasPrefix(p, "/") && strings.HasSuffix(p, "/") && len(p) > 1 {
			p = p[1 : len(p)-1]
		}
		p = strings.TrimSuffix(strings.TrimPrefix(p, "^"), "$")
		return []byte(string(m[1]) + `"^(?:` + p + `)$"`)
	})
}

var registerDecoders sync.Once

// Validator checks requests and answers of an API Pix served at a base URL
// (the URL the paths /cob/{txid}, /pix/{e2eid}... hang from, e.g.
// "https://127.0.0.1:1234/v2"), and the webhooks' bodies.
type Validator struct {
	*openapitest.Traffic
	doc *openapi3.T
}

// New builds a validator for the API at base.
func New(base string) (*Validator, error) {
	registerDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder("application/problem+json", openapi3filter.JSONBodyDecoder)
	})
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	// The payload-location routes (/{pixUrlAccessToken} and kin) are served
	// to payers at a charge's location, not by the API, and collide with
	// the API's own routes in a router.
	for _, p := range doc.Paths.InMatchingOrder() {
		if strings.Contains(p, "UrlAccessToken}") {
			doc.Paths.Delete(p)
		}
	}
	// The published document gives integers string defaults ("86400");
	// its defaults and examples are not what is being checked.
	traffic, err := openapitest.NewTraffic("BCB API Pix "+Version, doc, base,
		openapi3.DisableSchemaDefaultsValidation(), openapi3.DisableExamplesValidation())
	if err != nil {
		return nil, err
	}
	return &Validator{Traffic: traffic, doc: doc}, nil
}

// ErrNotInSpec: the route is not one the specification describes (an
// Efí route such as /v3/gn/pix/{idEnvio}, or the token endpoint).
var ErrNotInSpec = openapitest.ErrNotInDocument

// Webhook checks a body sent to {webhookUrl}/pix against the callback of
// PUT /webhook/{chave} (WebhookPixBody).
func (v *Validator) Webhook(body []byte) error { return v.callback("WebhookPixBody", body) }

// WebhookRec checks a body sent to {webhookUrl}/rec against the callback
// of PUT /webhookrec (WebhookRecBody).
func (v *Validator) WebhookRec(body []byte) error { return v.callback("WebhookRecBody", body) }

// WebhookCobR checks a body sent to {webhookUrl}/cobr against the
// callback of PUT /webhookcobr (WebhookCobRBody).
func (v *Validator) WebhookCobR(body []byte) error { return v.callback("WebhookCobRBody", body) }

// callback checks body against the request body the specification names.
func (v *Validator) callback(name string, body []byte) error {
	rb := v.doc.Components.RequestBodies[name]
	if rb == nil {
		return errors.New("the specification has no " + name)
	}
	return openapitest.Body(rb.Value.Content.Get("application/json").Schema.Value, body)
}

// Transport is an http.RoundTripper that checks every request it carries
// and every answer to it against the specification, failing T on any
// mismatch; requests to routes the specification does not describe (Efí's
// own) pass unchecked.
type Transport struct {
	T    testing.TB
	V    *Validator
	Next http.RoundTripper
}

func (tr *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	return tr.V.RoundTrip(tr.T, req, tr.Next, openapitest.Wire{Lenient: true})
}
