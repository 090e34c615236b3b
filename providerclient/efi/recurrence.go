package efi

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
)

// Pix Automático is not served by this connector yet: its calls answer
// unsupported, and Capabilities says so.

func (c *connector) CreateRecurrence(context.Context, providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	return nil, &providerclient.Error{Op: providerclient.OpCreateRecurrence, Kind: providerclient.ErrUnsupported}
}

func (c *connector) ReadRecurrence(context.Context, providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	return nil, &providerclient.Error{Op: providerclient.OpReadRecurrence, Kind: providerclient.ErrUnsupported}
}

func (c *connector) CancelRecurrence(context.Context, providerclient.RecurrenceRef) error {
	return &providerclient.Error{Op: providerclient.OpCancelRecurrence, Kind: providerclient.ErrUnsupported}
}
