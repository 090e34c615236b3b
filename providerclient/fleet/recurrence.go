package fleet

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
)

// A member's recurrence calls, guarded as its others. The Fleet's own go
// to the primary provider; a recurrence recorded as another provider's is
// reached through Provider(name).

func (g *guarded) CreateRecurrence(ctx context.Context, req providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	req.NotifyURL = g.m.notifyURL(req.NotifyURL)
	return run(ctx, g, providerclient.OpCreateRecurrence, func() (*providerclient.Recurrence, error) { return g.next.CreateRecurrence(ctx, req) })
}

func (g *guarded) ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	return run(ctx, g, providerclient.OpReadRecurrence, func() (*providerclient.Recurrence, error) { return g.next.ReadRecurrence(ctx, ref) })
}

func (g *guarded) CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error {
	_, err := run(ctx, g, providerclient.OpCancelRecurrence, func() (*struct{}, error) { return nil, g.next.CancelRecurrence(ctx, ref) })
	return err
}

func (f *Fleet) CreateRecurrence(ctx context.Context, req providerclient.RecurrenceRequest) (*providerclient.Recurrence, error) {
	return f.primary().CreateRecurrence(ctx, req)
}

func (f *Fleet) ReadRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	return f.primary().ReadRecurrence(ctx, ref)
}

func (f *Fleet) CancelRecurrence(ctx context.Context, ref providerclient.RecurrenceRef) error {
	return f.primary().CancelRecurrence(ctx, ref)
}
