// Package docs carries PixGate's OpenAPI document into the binary, so every
// process serves the description of exactly the API it runs. The rest of
// docs/ is written for people.
package docs

import _ "embed" // the OpenAPI document

// OpenAPI is docs/openapi.yaml: the v1 and v2 APIs, the provider's webhook,
// health, and the postbacks PixGate sends (as callbacks of the requests
// that name a postbackUrl), in OpenAPI 3.1.
//
//go:embed openapi.yaml
var OpenAPI []byte
