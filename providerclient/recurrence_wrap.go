package providerclient

import "context"

// The layers' recurrence calls, as their other calls: metrics, the
// breaker, and retries (each is safe to repeat: a create is deduplicated
// by PixGate's id, a cancel of a cancelled one is no error).

func (m *metered) CreateRecurrence(ctx context.Context, req RecurrenceRequest) (*Recurrence, error) {
	return observe(m, OpCreateRecurrence, func() (*Recurrence, error) { return m.next.CreateRecurrence(ctx, req) })
}

func (m *metered) ReadRecurrence(ctx context.Context, ref RecurrenceRef) (*Recurrence, error) {
	return observe(m, OpReadRecurrence, func() (*Recurrence, error) { return m.next.ReadRecurrence(ctx, ref) })
}

func (m *metered) CancelRecurrence(ctx context.Context, ref RecurrenceRef) error {
	_, err := observe(m, OpCancelRecurrence, func() (*struct{}, error) { return nil, m.next.CancelRecurrence(ctx, ref) })
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
