package worker

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// The fakes of MED infractions: storage's infractions in memory (each
// step guarded by status and posting its reference once, as storage's
// are) and a provider that reads them.

func (s *fakeStore) ChargeByEndToEndID(_ context.Context, e2e string) (storage.Charge, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.charges {
		if c.EndToEndID != nil && *c.EndToEndID == e2e {
			return c, nil
		}
	}
	return storage.Charge{}, storage.ErrNotFound
}

func (s *fakeStore) InfractionOf(_ context.Context, chargeID uuid.UUID, providerID string) (storage.Infraction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infractionOf(chargeID, providerID)
}

func (s *fakeStore) infractionOf(chargeID uuid.UUID, providerID string) (storage.Infraction, error) {
	for _, i := range s.infractions {
		if i.ChargeID == chargeID && i.ProviderID == providerID {
			return i, nil
		}
	}
	return storage.Infraction{}, storage.ErrNotFound
}

func (s *fakeStore) InfractionOfReturn(_ context.Context, retID uuid.UUID) (storage.Infraction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, i := range s.infractions {
		if i.MedReturnID != nil && *i.MedReturnID == retID {
			return i, nil
		}
	}
	return storage.Infraction{}, storage.ErrNotFound
}

// StaleInfractions: every open infraction.
func (s *fakeStore) StaleInfractions(context.Context, time.Duration, int) ([]storage.Infraction, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var open []storage.Infraction
	for _, i := range s.infractions {
		if i.Status == storage.InfractionOpen {
			open = append(open, i)
		}
	}
	return open, nil
}

func (s *fakeStore) TouchInfraction(_ context.Context, id uuid.UUID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.touched[id]++
	return nil
}

// OpenInfraction blocks the whole amount (the fake knows no balances).
func (x fakeTx) OpenInfraction(_ context.Context, ni storage.NewInfraction) (storage.Infraction, bool, error) {
	if known, err := x.s.infractionOf(ni.ChargeID, ni.ProviderID); err == nil {
		return known, false, nil
	}
	c, ok := x.s.charges[ni.ChargeID]
	if !ok {
		return storage.Infraction{}, false, storage.ErrNotFound
	}
	if c.Status != storage.ChargePaid {
		return storage.Infraction{}, false, storage.ErrChargeNotPaid
	}
	inf := storage.Infraction{ID: ni.ID, IntegratorID: c.IntegratorID, ChargeID: c.ID, ChargePixID: *c.PixID, ProviderID: ni.ProviderID,
		Amount: ni.Amount, Blocked: ni.Amount, Status: storage.InfractionOpen, CreatedAt: time.Now()}
	x.s.infractions[inf.ID] = inf
	x.s.postings = append(x.s.postings, "infraction:"+inf.ID.String()+":block")
	return inf, true, nil
}

func (x fakeTx) CloseInfraction(_ context.Context, id uuid.UUID, cl storage.InfractionClosing) (storage.Infraction, *storage.Transfer, bool, error) {
	inf, ok := x.s.infractions[id]
	if !ok {
		return inf, nil, false, storage.ErrNotFound
	}
	if inf.Status != storage.InfractionOpen {
		return inf, nil, false, nil
	}
	now := time.Now()
	inf.Status, inf.ClosedAt = cl.Status, &now
	if cl.Status != storage.InfractionAgreed {
		x.s.infractions[id] = inf
		x.s.postings = append(x.s.postings, "infraction:"+id.String()+":release")
		return inf, nil, true, nil
	}
	inf.MedReturnID = &cl.MedReturnID
	x.s.infractions[id] = inf
	c := x.s.charges[inf.ChargeID]
	ret := storage.Transfer{Kind: storage.KindMedReturn, ID: cl.MedReturnID, IntegratorID: inf.IntegratorID, Amount: inf.Blocked,
		Status: storage.TransferProcessing, ChargeID: c.ID, ChargePixID: *c.PixID, PostbackURL: c.PostbackURL}
	x.s.transfers[ret.ID] = ret
	x.s.outbox = append(x.s.outbox, cl.Outbox...)
	x.s.postings = append(x.s.postings, "med_return:"+ret.ID.String()+":reserve")
	return inf, &ret, true, nil
}

// fakeDisputes is a provider that also reads infractions, from its own
// list (by provider id), and lists them all.
type fakeDisputes struct {
	*fakeProvider
	mu          sync.Mutex
	infractions map[string]*providerclient.Infraction
	reads       int
}

func (d *fakeDisputes) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Infractions: true, InfractionList: true}
}

func (d *fakeDisputes) ReadInfraction(_ context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.reads++
	inf, ok := d.infractions[ref.ProviderID]
	if !ok {
		return nil, &providerclient.Error{Op: providerclient.OpReadInfraction, Kind: providerclient.ErrNotFound}
	}
	c := *inf
	return &c, nil
}

func (d *fakeDisputes) ListInfractions(context.Context, time.Time) ([]providerclient.Infraction, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []providerclient.Infraction
	for _, i := range d.infractions {
		out = append(out, *i)
	}
	return out, nil
}

func (d *fakeDisputes) set(inf providerclient.Infraction) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.infractions[inf.ProviderID] = &inf
}
