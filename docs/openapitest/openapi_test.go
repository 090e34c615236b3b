package openapitest

import "testing"

func TestDocumentIsValidOpenAPI31(t *testing.T) {
	doc := Load(t)
	if len(doc.Webhooks) == 0 {
		t.Fatal("the postbacks are not described as webhooks")
	}
}
