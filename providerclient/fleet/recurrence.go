package fleet

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage/money/due"
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

func (g *guarded) SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error) {
	req.NotifyURL = g.m.notifyURL(req.NotifyURL)
	return run(ctx, g, providerclient.OpSendCycle, func() (*providerclient.Cycle, error) { return g.next.SendCycle(ctx, req) })
}

func (g *guarded) ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error) {
	return run(ctx, g, providerclient.OpReadCycle, func() (*providerclient.Cycle, error) { return g.next.ReadCycle(ctx, ref) })
}

func (g *guarded) RetryCycle(ctx context.Context, ref providerclient.CycleRef, day due.Date) error {
	_, err := run(ctx, g, providerclient.OpRetryCycle, func() (*struct{}, error) { return nil, g.next.RetryCycle(ctx, ref, day) })
	return err
}

func (g *guarded) CancelCycle(ctx context.Context, ref providerclient.CycleRef) error {
	_, err := run(ctx, g, providerclient.OpCancelCycle, func() (*struct{}, error) { return nil, g.next.CancelCycle(ctx, ref) })
	return err
}

func (f *Fleet) SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error) {
	return f.primary().SendCycle(ctx, req)
}

func (f *Fleet) ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error) {
	return f.primary().ReadCycle(ctx, ref)
}

func (f *Fleet) RetryCycle(ctx context.Context, ref providerclient.CycleRef, day due.Date) error {
	return f.primary().RetryCycle(ctx, ref, day)
}

func (f *Fleet) CancelCycle(ctx context.Context, ref providerclient.CycleRef) error {
	return f.primary().CancelCycle(ctx, ref)
}
