package openapitest

import "testing"

// Postbacks are callbacks of the create operations (the URL comes from the
// request's postbackUrl), so every generator sees their schemas: 3.1
// webhooks are skipped by some (oapi-codegen prunes what only they use).
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	doc := Load(t)
	if len(doc.Webhooks) != 0 {
		t.Error("postbacks are described as webhooks; describe them as callbacks of the create operations")
	}
	for _, name := range []string{"charge", "withdrawal", "refund"} {
		if postbackItem(doc, name) == nil {
			t.Errorf("no postback callback %q", name)
		}
	}
	// Each from one operation: oapi-codegen writes a callback's code once per
	// operation that refers to it, twice would not build.
	for path, op := range map[string]string{"/api/v1/charges": "charge", "/api/v1/withdrawals": "withdrawal"} {
		if cb := doc.Paths.Find(path).Post.Callbacks[op]; cb == nil || cb.Ref != "#/components/callbacks/"+op {
			t.Errorf("POST %s does not refer to the %s postback callback", path, op)
		}
	}
}
