package payments

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// fakeStore keeps records in memory, with storage's rules for what the
// payment operations rely on: idempotency by external_id and request hash,
// guarded state changes.
type fakeStore struct {
	mu          sync.Mutex
	charges     map[uuid.UUID]*storage.Charge
	hashes      map[uuid.UUID][]byte
	withdrawals []storage.NewWithdrawal
	refunds     []storage.NewRefund
	events      []storage.NewProviderEvent
	outbox      []storage.OutboxMessage
	writes      int
	// route is every integrator's; nil is the default provider alone.
	route *storage.Route
	// available is every integrator's available balance.
	available money.Money
}

func (f *fakeStore) ForeignSubAccounts(_ context.Context, _ int64, ids []int64) ([]int64, error) {
	return ids, nil
}

func (f *fakeStore) RouteFor(context.Context, int64) (storage.Route, error) {
	if f.route != nil {
		return *f.route, nil
	}
	return storage.Route{Charges: []storage.RouteStep{{Provider: storage.DefaultProvider}}, Withdrawals: []string{storage.DefaultProvider}}, nil
}

func newFakeStore() *fakeStore {
	return &fakeStore{charges: map[uuid.UUID]*storage.Charge{}, hashes: map[uuid.UUID][]byte{}, available: money.FromReais(1000, 0)}
}

func (f *fakeStore) CreateCharge(_ context.Context, nc storage.NewCharge) (storage.Charge, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, c := range f.charges {
		if c.IntegratorID == nc.IntegratorID && c.ExternalID == nc.ExternalID {
			if !bytes.Equal(f.hashes[id], nc.RequestHash) {
				return storage.Charge{}, false, storage.ErrIdempotencyConflict
			}
			return *c, false, nil
		}
	}
	f.writes++
	c := &storage.Charge{ID: nc.ID, IntegratorID: nc.IntegratorID, ExternalID: nc.ExternalID, Amount: nc.Amount, Fee: nc.Fee,
		Status: storage.ChargePending, Payer: nc.Payer, PayerQuestion: nc.PayerQuestion, PostbackURL: nc.PostbackURL, Split: nc.Split,
		Expiration: nc.Expiration, Provider: nc.Provider, Due: nc.Due}
	f.charges[nc.ID], f.hashes[nc.ID] = c, nc.RequestHash
	return *c, true, nil
}

// change applies fn to a charge when ok says its state allows it.
func (f *fakeStore) change(id uuid.UUID, ok func(*storage.Charge) bool, fn func(*storage.Charge)) (storage.Charge, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.charges[id]
	if c == nil || !ok(c) {
		return storage.Charge{}, storage.ErrStateChanged
	}
	f.writes++
	fn(c)
	return *c, nil
}

func (f *fakeStore) ReopenCharge(_ context.Context, id uuid.UUID) (storage.Charge, error) {
	return f.change(id, func(c *storage.Charge) bool { return c.Status == storage.ChargeFailed && c.PixID == nil },
		func(c *storage.Charge) { c.Status = storage.ChargePending })
}

func (f *fakeStore) IssueCharge(_ context.Context, id uuid.UUID, is storage.ChargeIssue) (storage.Charge, error) {
	return f.change(id, func(c *storage.Charge) bool { return c.Status == storage.ChargePending && c.PixID == nil },
		func(c *storage.Charge) {
			c.PixID, c.QRCode, c.ExpiresAt, c.FailureReason = &is.PixID, &is.QRCode, &is.ExpiresAt, nil
			if is.Provider != "" {
				c.Provider = is.Provider
			}
		})
}

func (f *fakeStore) FailChargeAt(_ context.Context, id uuid.UUID, reason, provider string) (storage.Charge, error) {
	return f.change(id, func(c *storage.Charge) bool { return c.Status == storage.ChargePending && c.PixID == nil },
		func(c *storage.Charge) {
			c.Status, c.FailureReason = storage.ChargeFailed, &reason
			if provider != "" {
				c.Provider = provider
			}
		})
}

func (f *fakeStore) Charge(_ context.Context, integratorID int64, ref string) (storage.Charge, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.charges {
		if c.IntegratorID == integratorID && (c.ID.String() == ref || c.ExternalID == ref) {
			return *c, nil
		}
	}
	return storage.Charge{}, storage.ErrNotFound
}

func (f *fakeStore) CreateWithdrawal(_ context.Context, nw storage.NewWithdrawal) (storage.Transfer, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	f.withdrawals = append(f.withdrawals, nw)
	return storage.Transfer{Kind: storage.KindWithdrawal, ID: nw.ID, IntegratorID: nw.IntegratorID, ExternalID: nw.ExternalID, Amount: nw.Amount, Fee: nw.Fee,
		Status: storage.TransferProcessing, CreditParty: nw.CreditParty}, true, nil
}

func (f *fakeStore) ListCharges(context.Context, storage.ListParams) ([]storage.Charge, bool, error) {
	return nil, false, nil
}

func (f *fakeStore) Transfer(context.Context, storage.TransferKind, int64, string) (storage.Transfer, error) {
	return storage.Transfer{}, storage.ErrNotFound
}

// RecordProviderEvent stores every notification as a new event: the
// duplicates storage recognises are storage's own business.
func (f *fakeStore) RecordProviderEvent(_ context.Context, e storage.NewProviderEvent, outbox func(int64) storage.OutboxMessage) (int64, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	f.events = append(f.events, e)
	id := int64(len(f.events))
	f.outbox = append(f.outbox, outbox(id))
	return id, true, nil
}

func (f *fakeStore) Wallet(context.Context, int64) (storage.Wallet, error) {
	return storage.Wallet{Available: f.available}, nil
}

// ListTransfers lists the refunds made, of p.ChargeID when set.
func (f *fakeStore) ListTransfers(_ context.Context, kind storage.TransferKind, p storage.ListParams) ([]storage.Transfer, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []storage.Transfer
	for _, nr := range f.refunds {
		for _, c := range f.charges {
			if kind == storage.KindRefund && c.IntegratorID == p.IntegratorID && c.PixID != nil && *c.PixID == nr.ChargePixID &&
				(p.ChargeID == nil || *p.ChargeID == c.ID) {
				out = append(out, storage.Transfer{Kind: kind, ID: nr.ID, ChargeID: c.ID, Amount: nr.Amount})
			}
		}
	}
	return out, false, nil
}

func (f *fakeStore) TransactionByPixID(context.Context, int64, string) (storage.PixTransaction, error) {
	return storage.PixTransaction{}, storage.ErrNotFound
}

// fakeProvider answers charges with err, or issues them.
type fakeProvider struct {
	mu    sync.Mutex
	err   error
	calls []providerclient.ChargeRequest
}

func (p *fakeProvider) CreateCharge(_ context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, req)
	if p.err != nil {
		return nil, p.err
	}
	return &providerclient.Charge{ProviderID: "tx-" + req.ID, BRCode: "000201", Status: providerclient.StatusPending,
		ExpiresAt: time.Date(2026, 3, 10, 19, 0, 0, 0, time.UTC)}, nil
}

// ParseNotification is the family's reading of a notification.
func (p *fakeProvider) ParseNotification(h http.Header, body []byte) ([]providerclient.Event, error) {
	return family.NewConnector(providerclient.Config{}).ParseNotification(h, body)
}

// CreateRefund judges the charge named by pix_id with nr.Check, as storage
// does under the charge's lock.
func (f *fakeStore) CreateRefund(_ context.Context, nr storage.NewRefund) (storage.Transfer, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.charges {
		if c.IntegratorID != nr.IntegratorID || c.PixID == nil || *c.PixID != nr.ChargePixID {
			continue
		}
		if err := nr.Check(*c); err != nil {
			return storage.Transfer{}, false, err
		}
		f.writes++
		f.refunds = append(f.refunds, nr)
		c.RefundedAmount += nr.Amount
		return storage.Transfer{Kind: storage.KindRefund, ID: nr.ID, IntegratorID: nr.IntegratorID, ChargeID: c.ID, Amount: nr.Amount, Fee: nr.Fee,
			Status: storage.TransferProcessing}, true, nil
	}
	return storage.Transfer{}, false, storage.ErrNotFound
}
