package providerclient

import (
	"context"

	"github.com/pixgate/pixgate/storage/money/due"
)

// The layers' recurrence calls, as their other calls: metrics, the
// breaker, and retries (each is safe to repeat: a create is deduplicated
// by PixGate's id, a cancel of a cancelled one is no error).

func (m *metered) CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error) {
	return observe(ctx, m, OpCreateRecurrence, func() (*Recurrence, error) { return m.next.CreateRecurrence(ctx, req) })
}

func (m *metered) ReadRecurrence(ctx context.Context, ref RecurrenceRef) (*Recurrence, error) {
	return observe(ctx, m, OpReadRecurrence, func() (*Recurrence, error) { return m.next.ReadRecurrence(ctx, ref) })
}

func (m *metered) CancelRecurrence(ctx context.Context, ref RecurrenceRef) error {
	_, err := observe(ctx, m, OpCancelRecurrence, func() (*struct{}, error) { return nil, m.next.CancelRecurrence(ctx, ref) })
	return err
}

func (b *breaker) CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error) {
	return guard(b, OpCreateRecurrence, func() (*Recurrence, error) { return b.next.CreateRecurrence(ctx, req) })
}

func (b *breaker) ReadRecurrence(ctx context.Context, ref RecurrenceRef) (*Recurrence, error) {
	return guard(b, OpReadRecurrence, func() (*Recurrence, error) { return b.next.ReadRecurrence(ctx, ref) })
}

func (b *breaker) CancelRecurrence(ctx context.Context, ref RecurrenceRef) error {
	_, err := guard(b, OpCancelRecurrence, func() (*struct{}, error) { return nil, b.next.CancelRecurrence(ctx, ref) })
	return err
}

func (r *retrier) CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error) {
	return repeat(ctx, r, req.ID != "", func() (*Recurrence, error) { return r.next.CreateRecurrence(ctx, req) })
}

func (r *retrier) ReadRecurrence(ctx context.Context, ref RecurrenceRef) (*Recurrence, error) {
	return repeat(ctx, r, true, func() (*Recurrence, error) { return r.next.ReadRecurrence(ctx, ref) })
}

func (r *retrier) CancelRecurrence(ctx context.Context, ref RecurrenceRef) error {
	_, err := repeat(ctx, r, true, func() (*struct{}, error) { return nil, r.next.CancelRecurrence(ctx, ref) })
	return err
}

func (m *metered) SendCycle(ctx context.Context, req CycleRequest) (*Cycle, error) {
	return observe(ctx, m, OpSendCycle, func() (*Cycle, error) { return m.next.SendCycle(ctx, req) })
}

func (m *metered) ReadCycle(ctx context.Context, ref CycleRef) (*Cycle, error) {
	return observe(ctx, m, OpReadCycle, func() (*Cycle, error) { return m.next.ReadCycle(ctx, ref) })
}

func (m *metered) RetryCycle(ctx context.Context, ref CycleRef, day due.Date) error {
	_, err := observe(ctx, m, OpRetryCycle, func() (*struct{}, error) { return nil, m.next.RetryCycle(ctx, ref, day) })
	return err
}

func (m *metered) CancelCycle(ctx context.Context, ref CycleRef) error {
	_, err := observe(ctx, m, OpCancelCycle, func() (*struct{}, error) { return nil, m.next.CancelCycle(ctx, ref) })
	return err
}

func (b *breaker) SendCycle(ctx context.Context, req CycleRequest) (*Cycle, error) {
	return guard(b, OpSendCycle, func() (*Cycle, error) { return b.next.SendCycle(ctx, req) })
}

func (b *breaker) ReadCycle(ctx context.Context, ref CycleRef) (*Cycle, error) {
	return guard(b, OpReadCycle, func() (*Cycle, error) { return b.next.ReadCycle(ctx, ref) })
}

func (b *breaker) RetryCycle(ctx context.Context, ref CycleRef, day due.Date) error {
	_, err := guard(b, OpRetryCycle, func() (*struct{}, error) { return nil, b.next.RetryCycle(ctx, ref, day) })
	return err
}

func (b *breaker) CancelCycle(ctx context.Context, ref CycleRef) error {
	_, err := guard(b, OpCancelCycle, func() (*struct{}, error) { return nil, b.next.CancelCycle(ctx, ref) })
	return err
}

// A cycle is sent under PixGate's id (the contract deduplicates it), and a
// retry asked twice for the same day is refused as already asked: each is
// safe to repeat.

func (r *retrier) SendCycle(ctx context.Context, req CycleRequest) (*Cycle, error) {
	return repeat(ctx, r, req.ID != "", func() (*Cycle, error) { return r.next.SendCycle(ctx, req) })
}

func (r *retrier) ReadCycle(ctx context.Context, ref CycleRef) (*Cycle, error) {
	return repeat(ctx, r, true, func() (*Cycle, error) { return r.next.ReadCycle(ctx, ref) })
}

func (r *retrier) RetryCycle(ctx context.Context, ref CycleRef, day due.Date) error {
	_, err := repeat(ctx, r, true, func() (*struct{}, error) { return nil, r.next.RetryCycle(ctx, ref, day) })
	return err
}

func (r *retrier) CancelCycle(ctx context.Context, ref CycleRef) error {
	_, err := repeat(ctx, r, true, func() (*struct{}, error) { return nil, r.next.CancelCycle(ctx, ref) })
	return err
}
