package worker

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The fakes' cycles: a map by id, moved only from the status a move
// expects, as storage does; their attempts recorded by seq, a status
// recorded again being no change. Scheduling is storage's (tested against
// Postgres): the fakes schedule nothing.

func (f *fakeStore) DueRecurrences(context.Context, due.Date, int) ([]storage.Recurrence, error) {
	return nil, nil
}

func (f *fakeStore) ScheduleCycles(context.Context, uuid.UUID, due.Date) ([]storage.Cycle, error) {
	return nil, nil
}

func (f *fakeStore) CyclesToSend(_ context.Context, today due.Date, _ int) ([]storage.Cycle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []storage.Cycle
	for _, c := range f.cycles {
		if c.Status == recurrence.CycleScheduled && !c.SendOn.After(today) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (f *fakeStore) OpenCycles(context.Context, time.Duration, int) ([]storage.Cycle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []storage.Cycle
	for _, c := range f.cycles {
		if c.Status == recurrence.CycleCreated || c.Status == recurrence.CycleActive {
			out = append(out, c)
		}
	}
	return out, nil
}

func (f *fakeStore) CycleByID(_ context.Context, id uuid.UUID) (storage.Cycle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.cycles[id]
	if !ok {
		return c, storage.ErrNotFound
	}
	return c, nil
}

func (f *fakeStore) CycleByProviderID(_ context.Context, _, providerID string) (storage.Cycle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.cycles {
		if c.ProviderID != nil && *c.ProviderID == providerID {
			return c, nil
		}
	}
	return storage.Cycle{}, storage.ErrNotFound
}

func (f *fakeStore) TouchCycle(_ context.Context, id uuid.UUID) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.touched[id]++
	return nil
}

// CashInFee is 1.5%, rounded half up, as the fixtures' integrators take.
func (f *fakeStore) CashInFee(_ context.Context, _ int64, amount money.Money) (money.Money, error) {
	fee := money.Percent(15000).Compute(amount)
	if fee >= amount {
		return fee, storage.ErrCycleBelowFee
	}
	return fee, nil
}

func (x fakeTx) LockCycle(_ context.Context, id uuid.UUID) (storage.Cycle, error) {
	c, ok := x.s.cycles[id]
	if !ok {
		return c, storage.ErrNotFound
	}
	return c, nil
}

// IssueCycle writes the cycle's charge (fee 0.53 on R$ 35.00's terms: the
// fake keeps the cycle's Fee as given).
func (x fakeTx) IssueCycle(_ context.Context, c storage.Cycle, r storage.Recurrence, providerID string) (storage.Cycle, bool, error) {
	cur := x.s.cycles[c.ID]
	if cur.Status != recurrence.CycleScheduled {
		return cur, false, nil
	}
	chargeID := uuid.New()
	x.s.charges[chargeID] = storage.Charge{ID: chargeID, IntegratorID: r.IntegratorID, Amount: cur.Amount, Fee: cur.Fee,
		Status: storage.ChargePending, PixID: &providerID}
	cur.Status, cur.ProviderID, cur.ChargeID = recurrence.CycleCreated, &providerID, &chargeID
	x.s.cycles[c.ID] = cur
	return cur, true, nil
}

func (x fakeTx) MoveCycle(_ context.Context, id uuid.UUID, from recurrence.CycleStatus, ch storage.CycleChange) (storage.Cycle, bool, error) {
	c, ok := x.s.cycles[id]
	if !ok {
		return c, false, storage.ErrNotFound
	}
	if c.Status != from {
		return c, false, nil
	}
	c.Status, c.Retries, c.UpdatedAt = ch.To, max(c.Retries, ch.Retries), time.Now()
	if ch.RejectionCode != "" {
		c.RejectionCode = &ch.RejectionCode
	}
	x.s.cycles[id] = c
	return c, true, nil
}

func (x fakeTx) SetCycleRetries(_ context.Context, id uuid.UUID, retries int) error {
	c := x.s.cycles[id]
	c.Retries = max(c.Retries, retries)
	x.s.cycles[id] = c
	return nil
}

func (x fakeTx) RecordAttempt(_ context.Context, a storage.CycleAttempt) (storage.CycleAttempt, bool, error) {
	list := x.s.attempts[a.CycleID]
	if i := slices.IndexFunc(list, func(o storage.CycleAttempt) bool { return o.Seq == a.Seq }); i >= 0 {
		if list[i].Status == a.Status {
			return list[i], false, nil
		}
		a.ID = list[i].ID
		list = slices.Clone(list)
		list[i] = a
	} else {
		a.ID = uuid.New()
		list = append(slices.Clone(list), a)
	}
	x.s.attempts[a.CycleID] = list
	return a, true, nil
}

func (x fakeTx) CancelScheduledCycles(_ context.Context, recurrenceID uuid.UUID, by string) ([]storage.Cycle, error) {
	var out []storage.Cycle
	for id, c := range x.s.cycles {
		if c.RecurrenceID == recurrenceID && c.Status == recurrence.CycleScheduled {
			c.Status, c.CancelledBy = recurrence.CycleCancelled, &by
			x.s.cycles[id] = c
			out = append(out, c)
		}
	}
	return out, nil
}

func (x fakeTx) ParkSchedule(context.Context, uuid.UUID) error { return nil }

// cycleProvider answers every cycle read with cycle (a copy), records the
// retries asked, and retries by itself when itself is set.
type cycleProvider struct {
	*fakeProvider
	cycle   *providerclient.Cycle
	retries *[]due.Date
	itself  bool
}

func (p cycleProvider) SendCycle(context.Context, providerclient.CycleRequest) (*providerclient.Cycle, error) {
	c := *p.cycle
	return &c, nil
}

func (p cycleProvider) ReadCycle(context.Context, providerclient.CycleRef) (*providerclient.Cycle, error) {
	c := *p.cycle
	c.Attempts = slices.Clone(p.cycle.Attempts)
	return &c, nil
}

// RetryCycle opens the retry at the provider, as it does.
func (p cycleProvider) RetryCycle(_ context.Context, _ providerclient.CycleRef, day due.Date) error {
	*p.retries = append(*p.retries, day)
	p.cycle.Attempts = append(p.cycle.Attempts, providerclient.Attempt{Kind: recurrence.AttemptRetry, SettleOn: day,
		Status: recurrence.AttemptRequested})
	return nil
}

func (p cycleProvider) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Recurrences: true, RetriesItself: p.itself}
}
