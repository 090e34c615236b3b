package worker

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
)

func (s *fakeStore) RecurrenceByID(_ context.Context, id uuid.UUID) (storage.Recurrence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recurrences[id]
	if !ok {
		return r, storage.ErrNotFound
	}
	return r, nil
}

func (s *fakeStore) RecurrenceByProviderID(_ context.Context, provider, id string) (storage.Recurrence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.recurrences {
		if r.Provider == provider && r.ProviderID != nil && *r.ProviderID == id {
			return r, nil
		}
	}
	return storage.Recurrence{}, storage.ErrNotFound
}

func (s *fakeStore) WaitingRecurrences(context.Context, time.Duration, int) ([]storage.Recurrence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Recurrence
	for _, r := range s.recurrences {
		if r.Status == recurrence.RecurrenceCreated && r.ProviderID != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *fakeStore) TouchRecurrence(_ context.Context, id uuid.UUID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touched[id]++
	return nil
}

// MoveRecurrence moves it only from the status the move expects, as
// storage does.
func (x fakeTx) MoveRecurrence(_ context.Context, id uuid.UUID, from recurrence.RecurrenceStatus, c storage.RecurrenceChange) (storage.Recurrence, bool, error) {
	r, ok := x.s.recurrences[id]
	if !ok {
		return r, false, storage.ErrNotFound
	}
	if r.Status != from {
		return r, false, nil
	}
	r.Status = c.To
	if c.PayerMax > 0 {
		r.PayerMax = &c.PayerMax
	}
	if c.CancelledBy != "" {
		r.CancelledBy = &c.CancelledBy
	}
	if c.EndCode != "" {
		r.EndCode = &c.EndCode
	}
	x.s.recurrences[id] = r
	return r, true, nil
}

// recurrenceReader answers every read with its recurrence, and counts
// its cancels in cancels (when set).
type recurrenceReader struct {
	*fakeProvider
	rec     *providerclient.Recurrence
	err     error
	cancels *int
}

func (p recurrenceReader) CancelRecurrence(context.Context, providerclient.RecurrenceRef) error {
	if p.cancels != nil {
		*p.cancels++
	}
	return nil
}

func (p recurrenceReader) ReadRecurrence(context.Context, providerclient.RecurrenceRef) (*providerclient.Recurrence, error) {
	return p.rec, p.err
}
