package family

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/money/due"
)

// A recurrence's cycles are not served yet.

func (f *connector) SendCycle(context.Context, providerclient.CycleRequest) (*providerclient.Cycle, error) {
	return nil, &providerclient.Error{Op: providerclient.OpSendCycle, Kind: providerclient.ErrUnsupported}
}

func (f *connector) ReadCycle(context.Context, providerclient.CycleRef) (*providerclient.Cycle, error) {
	return nil, &providerclient.Error{Op: providerclient.OpReadCycle, Kind: providerclient.ErrUnsupported}
}

func (f *connector) RetryCycle(context.Context, providerclient.CycleRef, due.Date) error {
	return &providerclient.Error{Op: providerclient.OpRetryCycle, Kind: providerclient.ErrUnsupported}
}

func (f *connector) CancelCycle(context.Context, providerclient.CycleRef) error {
	return &providerclient.Error{Op: providerclient.OpCancelCycle, Kind: providerclient.ErrUnsupported}
}
