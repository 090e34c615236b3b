package worker

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The fakes hold no cycles: the cycles' decisions are tested against
// Postgres and the sandbox (cmd/pixgate's end-to-end tests).

func (f *fakeStore) DueRecurrences(context.Context, due.Date, int) ([]storage.Recurrence, error) {
	return nil, nil
}

func (f *fakeStore) ScheduleCycles(context.Context, uuid.UUID, due.Date) ([]storage.Cycle, error) {
	return nil, nil
}

func (f *fakeStore) CyclesToSend(context.Context, due.Date, int) ([]storage.Cycle, error) { return nil, nil }

func (f *fakeStore) OpenCycles(context.Context, time.Duration, int) ([]storage.Cycle, error) {
	return nil, nil
}

func (f *fakeStore) CycleByID(context.Context, uuid.UUID) (storage.Cycle, error) {
	return storage.Cycle{}, storage.ErrNotFound
}

func (f *fakeStore) CycleByProviderID(context.Context, string, string) (storage.Cycle, error) {
	return storage.Cycle{}, storage.ErrNotFound
}

func (f *fakeStore) TouchCycle(context.Context, uuid.UUID) error { return nil }

func (t fakeTx) LockCycle(context.Context, uuid.UUID) (storage.Cycle, error) {
	return storage.Cycle{}, storage.ErrNotFound
}

func (t fakeTx) IssueCycle(context.Context, storage.Cycle, storage.Recurrence, string) (storage.Cycle, bool, error) {
	return storage.Cycle{}, false, storage.ErrNotFound
}

func (t fakeTx) MoveCycle(context.Context, uuid.UUID, recurrence.CycleStatus, storage.CycleChange) (storage.Cycle, bool, error) {
	return storage.Cycle{}, false, storage.ErrNotFound
}

func (t fakeTx) SetCycleRetries(context.Context, uuid.UUID, int) error { return nil }

func (t fakeTx) RecordAttempt(_ context.Context, a storage.CycleAttempt) (storage.CycleAttempt, bool, error) {
	return a, false, nil
}

func (t fakeTx) CancelScheduledCycles(context.Context, uuid.UUID, string) ([]storage.Cycle, error) {
	return nil, nil
}

func (t fakeTx) ParkSchedule(context.Context, uuid.UUID) error { return nil }
