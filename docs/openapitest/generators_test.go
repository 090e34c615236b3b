package openapitest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// What made clients generated from the document wrong or unbuildable, each
// checked on every schema the document holds. cmd/pixgate's
// TestGeneratedClients runs the generators themselves; these rules hold even
// where those tools are not installed.
func TestDocumentSuitsClientGenerators(t *testing.T) {
	doc := Load(t)
	eachSchema(doc, func(where string, s *openapi3.Schema) {
		if s.Type.Includes(openapi3.TypeNumber) && s.Format != "double" {
			// Without a format, oapi-codegen reads numbers as float32:
			// 197143.76 came back as 197143.77.
			t.Errorf("%s: a number without format: double", where)
		}
		if s.Type.Includes(openapi3.TypeObject) && len(s.Properties) == 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			// openapi-typescript types it Record<string, never>: nothing fits.
			t.Errorf("%s: an object with neither properties nor additionalProperties", where)
		}
		for _, name := range s.Required {
			if p := s.Properties[name]; p != nil && p.Value != nil && (p.Value.Type.IncludesNull() || p.Value.Nullable) {
				// swagger-codegen's Python models refuse null in a required property.
				t.Errorf("%s: %s is required and may be null", where, name)
			}
		}
		seen := map[string]string{}
		for name := range s.Properties {
			// pix_id and pix_Id both became PixId in Go, pix_id in Python.
			key := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
			if other, ok := seen[key]; ok {
				t.Errorf("%s: properties %s and %s get the same name in generated code", where, name, other)
			}
			seen[key] = name
		}
	})
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil && len(op.RequestBody.Value.Content) > 1 {
				// swagger-codegen's Python writes one method per content type, all of one name.
				t.Errorf("%s %s: %d request content types", method, path, len(op.RequestBody.Value.Content))
			}
		}
	}
}

// eachSchema calls fn for every schema of the document, named by where it
// sits: components, and the parameters, bodies and answers of every
// operation and postback callback, nested schemas included.
func eachSchema(doc *openapi3.T, fn func(where string, s *openapi3.Schema)) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, ref *openapi3.SchemaRef)
	walk = func(where string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		fn(where, s)
		for _, name := range sortedKeys(s.Properties) {
			walk(where+"."+name, s.Properties[name])
		}
		walk(where+"[]", s.Items)
		walk(where+"{}", s.AdditionalProperties.Schema)
		for i, sub := range slices.Concat(s.OneOf, s.AnyOf, s.AllOf) {
			walk(fmt.Sprintf("%s|%d", where, i), sub)
		}
	}
	for _, name := range sortedKeys(doc.Components.Schemas) {
		walk("#/components/schemas/"+name, doc.Components.Schemas[name])
	}
	operations := func(prefix string, item *openapi3.PathItem) {
		for method, op := range item.Operations() {
			where := prefix + " " + method
			for _, p := range op.Parameters {
				if p.Value != nil {
					walk(where+" "+p.Value.Name, p.Value.Schema)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for ct, media := range op.RequestBody.Value.Content {
					walk(where+" body "+ct, media.Schema)
				}
			}
			for status, r := range op.Responses.Map() {
				if r.Value != nil {
					for ct, media := range r.Value.Content {
						walk(where+" "+status+" "+ct, media.Schema)
					}
				}
			}
		}
	}
	for path, item := range doc.Paths.Map() {
		operations(path, item)
	}
	for name, cb := range doc.Components.Callbacks {
		if cb.Value != nil {
			for expr, item := range cb.Value.Map() {
				operations("callback "+name+" "+expr, item)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
