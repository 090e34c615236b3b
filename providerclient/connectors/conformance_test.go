package connectors_test

import (
	"testing"

	"github.com/pixgate/pixgate/providerclient/conformancetest"
	"github.com/pixgate/pixgate/providerclient/connectors"
)

// Every connector PixGate can build passes the conformance suite against
// the sandbox's face of its contract: a kind added to Kinds without a face
// there fails here.
func TestConformance(t *testing.T) {
	for _, kind := range connectors.Kinds {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			conformancetest.Run(t, kind)
		})
	}
}
