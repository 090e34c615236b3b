package worker

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The fakes of the worker's seams (store.go): storage in memory, a
// scripted provider and a queue that only records. A worker built on them
// (fakeWorker) runs its decisions with no Postgres, Redis or provider.

// fakeStore keeps the records the worker decides about in memory. Its
// transactions are all or nothing: a failing one leaves the store as it
// was. It records what the database would have written besides: the
// references posted, the postbacks, the outbox messages of re-drives.
type fakeStore struct {
	mu        sync.Mutex
	charges   map[uuid.UUID]storage.Charge
	transfers map[uuid.UUID]storage.Transfer
	events    map[int64]storage.ProviderEvent
	recovery  map[uuid.UUID]storage.Recovery
	postings  []string // ledger references, in order
	postbacks []storage.NewPostback
	outbox    []storage.OutboxMessage
	touched   map[uuid.UUID]int
	scheduled map[uuid.UUID]time.Time
	actions   []storage.OperatorAction
	// infractions by id (fake_med_test.go)
	infractions map[uuid.UUID]storage.Infraction
	reads       int // charges and transfers read outside a transaction
	// the withdrawals' failover: sends started, moves made, the route
	sends map[uuid.UUID]int
	moves []string
	route *storage.Route
	// recurrences by id (fake_recurrence_test.go)
	recurrences map[uuid.UUID]storage.Recurrence
	// cycles by id, and their attempts (fake_cycles_test.go)
	cycles   map[uuid.UUID]storage.Cycle
	attempts map[uuid.UUID][]storage.CycleAttempt
}

func newFakeStore() *fakeStore {
	return &fakeStore{charges: map[uuid.UUID]storage.Charge{}, transfers: map[uuid.UUID]storage.Transfer{},
		events: map[int64]storage.ProviderEvent{}, recovery: map[uuid.UUID]storage.Recovery{},
		touched: map[uuid.UUID]int{}, scheduled: map[uuid.UUID]time.Time{}, infractions: map[uuid.UUID]storage.Infraction{},
		recurrences: map[uuid.UUID]storage.Recurrence{}, cycles: map[uuid.UUID]storage.Cycle{},
		attempts: map[uuid.UUID][]storage.CycleAttempt{}}
}

var _ store = (*fakeStore)(nil)

// InTx runs fn on a fakeTx; fn's error undoes what it did.
func (s *fakeStore) InTx(_ context.Context, fn func(Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	charges, transfers, events, infractions := maps.Clone(s.charges), maps.Clone(s.transfers), maps.Clone(s.events), maps.Clone(s.infractions)
	recurrences, cycles, attempts := maps.Clone(s.recurrences), maps.Clone(s.cycles), maps.Clone(s.attempts)
	postings, postbacks, actions, outbox := len(s.postings), len(s.postbacks), len(s.actions), len(s.outbox)
	if err := fn(fakeTx{s}); err != nil {
		s.charges, s.transfers, s.events, s.infractions, s.outbox = charges, transfers, events, infractions, s.outbox[:outbox]
		s.recurrences, s.cycles, s.attempts = recurrences, cycles, attempts
		s.postings, s.postbacks, s.actions = s.postings[:postings], s.postbacks[:postbacks], s.actions[:actions]
		return err
	}
	return nil
}

func (s *fakeStore) ChargeByID(_ context.Context, id uuid.UUID) (storage.Charge, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	c, ok := s.charges[id]
	if !ok {
		return c, storage.ErrNotFound
	}
	return c, nil
}

func (s *fakeStore) ChargeByPixID(_ context.Context, pixID string) (storage.Charge, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	for _, c := range s.charges {
		if c.PixID != nil && *c.PixID == pixID {
			return c, nil
		}
	}
	return storage.Charge{}, storage.ErrNotFound
}

// ClaimDueCharges claims every PENDING charge: the decision tests drive
// one check at a time.
func (s *fakeStore) ClaimDueCharges(context.Context, time.Time, time.Duration, time.Duration, int) ([]storage.Charge, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []storage.Charge
	for _, c := range s.charges {
		if c.Status == storage.ChargePending && c.PixID != nil {
			due = append(due, c)
		}
	}
	return due, nil
}

func (s *fakeStore) ScheduleChargeCheck(_ context.Context, id uuid.UUID, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.charges[id].Status == storage.ChargePending {
		s.scheduled[id] = at
	}
	return nil
}

func (s *fakeStore) UnissuedCharges(context.Context, time.Duration, int) ([]storage.Charge, error) {
	return nil, nil
}

func (s *fakeStore) FailCharge(context.Context, uuid.UUID, string) (storage.Charge, error) {
	return storage.Charge{}, storage.ErrStateChanged
}

func (s *fakeStore) DueReleases(context.Context, int) ([]uuid.UUID, error) { return nil, nil }

func (s *fakeStore) ReleaseCharge(context.Context, uuid.UUID) (money.Money, error) { return 0, nil }

func (s *fakeStore) DeferRelease(context.Context, uuid.UUID, time.Duration) error { return nil }

func (s *fakeStore) TransferByID(_ context.Context, kind storage.TransferKind, id uuid.UUID) (storage.Transfer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	t, ok := s.transfers[id]
	if !ok || t.Kind != kind {
		return storage.Transfer{}, storage.ErrNotFound
	}
	return t, nil
}

func (s *fakeStore) TransferByPixID(_ context.Context, kind storage.TransferKind, pixID string) (storage.Transfer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	for _, t := range s.transfers {
		if t.Kind == kind && t.PixID != nil && *t.PixID == pixID {
			return t, nil
		}
	}
	return storage.Transfer{}, storage.ErrNotFound
}

func (s *fakeStore) RecordTransferSent(_ context.Context, _ storage.TransferKind, id uuid.UUID, pixID, _ string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.transfers[id]; ok && t.PixID == nil {
		t.PixID = &pixID
		s.transfers[id] = t
	}
	return nil
}

// StaleTransfers: every PROCESSING transfer of the kind not flagged.
func (s *fakeStore) StaleTransfers(_ context.Context, kind storage.TransferKind, _ time.Duration, _ int) ([]storage.Transfer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var stale []storage.Transfer
	for _, t := range s.transfers {
		if t.Kind == kind && t.Status == storage.TransferProcessing && s.recovery[t.ID].FlaggedAt == nil {
			stale = append(stale, t)
		}
	}
	return stale, nil
}

func (s *fakeStore) TouchTransfer(_ context.Context, _ storage.TransferKind, id uuid.UUID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touched[id]++
	return nil
}

func (s *fakeStore) RedriveTransfer(_ context.Context, _ storage.TransferKind, id uuid.UUID, msg storage.OutboxMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.transfers[id]; t.Status == storage.TransferProcessing && t.PixID == nil {
		s.outbox = append(s.outbox, msg)
		s.touched[id]++
	}
	return nil
}

func (s *fakeStore) TransferRecovery(_ context.Context, _ storage.TransferKind, id uuid.UUID) (storage.Recovery, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recovery[id], nil
}

func (s *fakeStore) RecordResent(_ context.Context, _ storage.TransferKind, id uuid.UUID, oldPixID, newPixID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.transfers[id]
	if t.Status != storage.TransferProcessing || t.PixID == nil || *t.PixID != oldPixID {
		return storage.ErrStateChanged
	}
	t.PixID = &newPixID
	s.transfers[id] = t
	r := s.recovery[id]
	r.Resends++
	s.recovery[id] = r
	return nil
}

func (s *fakeStore) FlagTransfer(_ context.Context, _ storage.TransferKind, id uuid.UUID, reason string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.recovery[id]
	if r.FlaggedAt != nil || s.transfers[id].Status != storage.TransferProcessing {
		return false, nil
	}
	now := time.Now()
	r.FlaggedAt, r.FlagReason = &now, &reason
	s.recovery[id] = r
	return true, nil
}

func (s *fakeStore) CountFlaggedTransfers(context.Context) (map[storage.TransferKind]int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	counts := map[storage.TransferKind]int{}
	for id, r := range s.recovery {
		if t := s.transfers[id]; r.FlaggedAt != nil && t.Status == storage.TransferProcessing {
			counts[t.Kind]++
		}
	}
	return counts, nil
}

// PickProviderEvent returns the event and, as storage does, the record
// look names by its provider id.
func (s *fakeStore) PickProviderEvent(_ context.Context, id int64, look storage.RecordLookup) (storage.ProviderEvent, storage.EventRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rec storage.EventRecord
	e, ok := s.events[id]
	if !ok {
		return e, rec, storage.ErrNotFound
	}
	switch {
	case look.PixID == "":
	case look.Charge:
		for _, c := range s.charges {
			if c.PixID != nil && *c.PixID == look.PixID {
				rec.Charge = &c
			}
		}
	default:
		for _, t := range s.transfers {
			if t.Kind == look.Kind && t.PixID != nil && *t.PixID == look.PixID {
				rec.Transfer = &t
			}
		}
	}
	return e, rec, nil
}

func (s *fakeStore) UnprocessedEvents(context.Context, time.Duration, int) ([]storage.ProviderEvent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var late []storage.ProviderEvent
	for _, e := range s.events {
		if e.ProcessedAt == nil {
			late = append(late, e)
		}
	}
	return late, nil
}

func (s *fakeStore) PostbackForDelivery(context.Context, uuid.UUID) (storage.Postback, string, error) {
	return storage.Postback{}, "", storage.ErrNotFound
}

func (s *fakeStore) WebhookSecret(context.Context, int64) (string, error) {
	return "", storage.ErrNotFound
}

func (s *fakeStore) RecordPostbackAttempt(context.Context, uuid.UUID, storage.PostbackAttemptResult) (storage.Postback, error) {
	return storage.Postback{}, storage.ErrNotFound
}

func (s *fakeStore) OverduePostbacks(context.Context, time.Duration, int) ([]storage.Postback, error) {
	return nil, nil
}

func (s *fakeStore) RedriveOverduePostback(context.Context, uuid.UUID, time.Duration, storage.OutboxMessage) (bool, error) {
	return false, nil
}

// MayHoldDeliveries says yes: every delivery asks its gate (gateStore).
func (s *fakeStore) MayHoldDeliveries(context.Context, int64) (bool, error) { return true, nil }

func (s *fakeStore) GateDelivery(context.Context, int64, string, uuid.UUID, string) (storage.EndpointGate, error) {
	return storage.GateGo, nil
}

func (s *fakeStore) DisableFailingEndpoints(context.Context, time.Time, int) ([]storage.DisabledEndpoint, error) {
	return nil, nil
}

func (s *fakeStore) RelayOutbox(context.Context, time.Duration, int, func(context.Context, storage.PendingOutbox) error) (int, error) {
	return 0, nil
}

func (s *fakeStore) OutboxLag(context.Context, time.Duration) (time.Duration, error) { return 0, nil }

func (s *fakeStore) PruneProcessedEvents(context.Context, time.Duration, int) (int64, error) {
	return 0, nil
}

func (s *fakeStore) PruneSentOutbox(context.Context, time.Duration, int) (int64, error) {
	return 0, nil
}

func (s *fakeStore) Ping(context.Context) error { return nil }

// ClaimWithdrawalSend numbers the sends at the recorded provider and
// returns the withdrawal, as storage does.
func (s *fakeStore) ClaimWithdrawalSend(_ context.Context, id uuid.UUID) (storage.Transfer, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sends == nil {
		s.sends = map[uuid.UUID]int{}
	}
	t, ok := s.transfers[id]
	if !ok || t.Status != storage.TransferProcessing || t.PixID != nil {
		return storage.Transfer{}, 0, storage.ErrStateChanged
	}
	s.sends[id]++
	return t, s.sends[id], nil
}

func (s *fakeStore) EndWithdrawalSend(context.Context, uuid.UUID) error { return nil }

func (s *fakeStore) MoveWithdrawal(_ context.Context, id uuid.UUID, from, to string, send int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.transfers[id]
	if !ok || t.Provider != from || s.sends[id] != send || t.Status != storage.TransferProcessing || t.PixID != nil {
		return storage.ErrStateChanged
	}
	t.Provider = to
	s.transfers[id] = t
	delete(s.sends, id)
	s.moves = append(s.moves, from+"→"+to)
	return nil
}

// RouteFor: s.route, or the default provider alone.
func (s *fakeStore) RouteFor(context.Context, int64) (storage.Route, error) {
	if s.route != nil {
		return *s.route, nil
	}
	return storage.Route{Charges: []storage.RouteStep{{Provider: storage.DefaultProvider}}, Withdrawals: []string{storage.DefaultProvider}}, nil
}
