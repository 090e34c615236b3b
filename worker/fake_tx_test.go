package worker

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
)

// fakeTx writes into its store, whose lock InTx holds. Each transition is
// guarded by the record's status, as storage's are, and posts its
// reference once.
type fakeTx struct{ s *fakeStore }

func (x fakeTx) MarkChargePaid(_ context.Context, id uuid.UUID, st storage.Settlement) (storage.Charge, bool, error) {
	c, ok := x.s.charges[id]
	if !ok {
		return c, false, storage.ErrNotFound
	}
	if c.Status != storage.ChargePending && c.Status != storage.ChargeExpired {
		return c, false, nil
	}
	c.Status, c.PaidAt = storage.ChargePaid, &st.At
	if c.PixID == nil {
		c.PixID = &st.PixID
	}
	x.s.charges[id] = c
	x.s.postings = append(x.s.postings, "charge:"+id.String()+":paid")
	return c, true, nil
}

func (x fakeTx) ExpireCharge(_ context.Context, id uuid.UUID) (storage.Charge, bool, error) {
	c, ok := x.s.charges[id]
	if !ok || c.Status != storage.ChargePending {
		return c, false, nil
	}
	c.Status = storage.ChargeExpired
	x.s.charges[id] = c
	return c, true, nil
}

func (x fakeTx) CompleteTransfer(_ context.Context, kind storage.TransferKind, id uuid.UUID, st storage.Settlement) (storage.Transfer, bool, error) {
	return x.finish(kind, id, func(t *storage.Transfer) {
		t.Status, t.FinishedAt = storage.TransferCompleted, &st.At
		if t.PixID == nil && st.PixID != "" {
			t.PixID = &st.PixID
		}
		if st.EndToEndID != "" {
			t.EndToEndID = &st.EndToEndID
		}
	}, storage.TransferPosting(kind, id, true))
}

func (x fakeTx) FailTransfer(_ context.Context, kind storage.TransferKind, id uuid.UUID, f storage.Failure) (storage.Transfer, bool, error) {
	return x.finish(kind, id, func(t *storage.Transfer) {
		now := time.Now()
		t.Status, t.FinishedAt, t.FailureReason = storage.TransferFailed, &now, &f.Reason
		if t.PixID == nil && f.PixID != "" {
			t.PixID = &f.PixID
		}
	}, storage.TransferPosting(kind, id, false))
}

func (x fakeTx) finish(kind storage.TransferKind, id uuid.UUID, change func(*storage.Transfer), reference string) (storage.Transfer, bool, error) {
	t, ok := x.s.transfers[id]
	if !ok || t.Kind != kind {
		return t, false, storage.ErrNotFound
	}
	if t.Status != storage.TransferProcessing {
		return t, false, nil
	}
	change(&t)
	x.s.transfers[id] = t
	x.s.postings = append(x.s.postings, reference)
	return t, true, nil
}

func (x fakeTx) WritePostback(_ context.Context, np storage.NewPostback) error {
	for _, p := range x.s.postbacks {
		if p.ResourceID == np.ResourceID && p.Event == np.Event {
			return nil
		}
	}
	x.s.postbacks = append(x.s.postbacks, np)
	return nil
}

func (x fakeTx) MarkEventProcessed(_ context.Context, id int64, outcome string, confirmed, borneOut bool, _ string) error {
	e, ok := x.s.events[id]
	if !ok || e.ProcessedAt != nil {
		return nil
	}
	now := time.Now()
	e.ProcessedAt, e.Outcome, e.Confirmed, e.BorneOut = &now, &outcome, confirmed, borneOut
	x.s.events[id] = e
	return nil
}

func (x fakeTx) RecordOperatorAction(_ context.Context, a storage.OperatorAction) (storage.OperatorAction, error) {
	x.s.actions = append(x.s.actions, a)
	return a, nil
}

// fakeProvider answers as scripted: consult from txns (by transaction id,
// ErrNotFound for any other), or consultErr; sends with sendErr, else a
// new transaction id each ("prov-" + PixGate's id), recording the external
// ids sent. Like a connector whose contract reads by PixGate's id, a read
// of a ref without the provider's id looks up "prov-" + PixGate's id, and
// a miss there is a proof of absence; a read by the provider's id that
// misses is a bare not-found.
type fakeProvider struct {
	mu         sync.Mutex
	txns       map[string]*family.Transaction
	consultErr error
	sendErr    error
	sent       []string // external ids, in order
	consulted  int
}

func (p *fakeProvider) Read(_ context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.consulted++
	if p.consultErr != nil {
		return nil, p.consultErr
	}
	id, byOwnID := ref.ProviderID, ref.ProviderID == ""
	if byOwnID {
		id = "prov-" + ref.ID
	}
	txn, ok := p.txns[id]
	if !ok {
		return nil, &providerclient.Error{Op: "read transaction", Kind: providerclient.ErrNotFound, StatusCode: 404,
			Absent: byOwnID && ref.ID != ""}
	}
	n := family.Neutral(*txn) // the provider answers in the family's words, read as the family's connector reads them
	if n.ProviderID == "" {
		n.ProviderID = id
	}
	return &n, nil
}

func (p *fakeProvider) SendPix(_ context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	id, err := p.send(req.ID)
	return &providerclient.Payout{ProviderID: id}, err
}

func (p *fakeProvider) Refund(_ context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	id, err := p.send(req.ID)
	return &providerclient.Refund{ProviderID: id}, err
}

func (p *fakeProvider) send(externalID string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sendErr != nil {
		return "", p.sendErr
	}
	p.sent = append(p.sent, externalID)
	return "prov-" + externalID, nil
}

// fakeQueue records what is enqueued.
type fakeQueue struct {
	mu    sync.Mutex
	tasks []*asynq.Task
}

func (q *fakeQueue) EnqueueContext(_ context.Context, t *asynq.Task, _ ...asynq.Option) (*asynq.TaskInfo, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tasks = append(q.tasks, t)
	return &asynq.TaskInfo{}, nil
}

// fakeWorker is a worker on the fakes, with the default configuration.
func fakeWorker(st *fakeStore, p *fakeProvider) (*Worker, *fakeQueue) {
	q := &fakeQueue{}
	return newWorker(Config{ProviderWebhookURL: "https://pixgate.example/webhooks/provider/t"}, st, p, q,
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil), q
}
