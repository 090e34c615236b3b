// Package gen is the client of PixGate's API that oapi-codegen generates
// from docs/openapi.yaml (client.gen.go, not edited by hand; its
// configuration in oapi-codegen.yaml): the SDK's requests are built by it.
// After docs/openapi.yaml changes, regenerate it with
// `go generate ./internal/gen` from api/sdk; TestGeneratedClientIsCurrent
// fails until then.
package gen

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -config oapi-codegen.yaml ../../../../docs/openapi.yaml
