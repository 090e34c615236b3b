package woovi

import (
	"context"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// PixGate reads no MED infraction and looks no key up through Woovi's
// API: its connector offers neither (Capabilities).

func (c *connector) ReadInfraction(context.Context, providerclient.InfractionRef) (*providerclient.Infraction, error) {
	return nil, unsupported(providerclient.OpReadInfraction)
}

func (c *connector) ListInfractions(context.Context, time.Time) ([]providerclient.Infraction, error) {
	return nil, unsupported(providerclient.OpListInfractions)
}

func (c *connector) DefendInfraction(context.Context, providerclient.InfractionRef, string) error {
	return unsupported(providerclient.OpDefendInfraction)
}

func (c *connector) LookupKey(context.Context, string, string) (*providerclient.KeyHolder, error) {
	return nil, unsupported(providerclient.OpLookupKey)
}

func unsupported(op string) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnsupported}
}
