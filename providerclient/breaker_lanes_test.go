package providerclient_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// hanging times out every send and refund and answers every read, balance
// and statement: a provider whose payments hang while the rest of it works.
type hanging struct {
	providerclient.Connector
	mu    sync.Mutex
	calls map[string]int
}

func (h *hanging) count(op string) {
	h.mu.Lock()
	h.calls[op]++
	h.mu.Unlock()
}

func (h *hanging) Name() string { return "slow" }

func (h *hanging) SendPix(context.Context, providerclient.PayoutRequest) (*providerclient.Payout, error) {
	h.count(providerclient.OpPayout)
	return nil, &providerclient.Error{Op: providerclient.OpPayout, Kind: providerclient.ErrUnknownOutcome}
}

func (h *hanging) Refund(context.Context, providerclient.RefundRequest) (*providerclient.Refund, error) {
	h.count(providerclient.OpRefund)
	return nil, &providerclient.Error{Op: providerclient.OpRefund, Kind: providerclient.ErrUnknownOutcome}
}

func (h *hanging) Read(_ context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	h.count(providerclient.OpRead)
	return &providerclient.Transaction{ExternalID: ref.ID, Status: providerclient.StatusCompleted}, nil
}

func (h *hanging) Balance(context.Context) (*providerclient.Balance, error) {
	h.count(providerclient.OpBalance)
	return &providerclient.Balance{}, nil
}

func (h *hanging) CreateCharge(_ context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	h.count(providerclient.OpCharge)
	return &providerclient.Charge{ProviderID: req.ID}, nil
}

// Sends that time out open the send lane's breaker and no other: the reads
// that credit paid charges, the balance and charge creates still reach the
// provider, and the transitions name the lane.
func TestBreakerLanesAreJudgedApart(t *testing.T) {
	h := &hanging{calls: map[string]int{}}
	var mu sync.Mutex
	var changes []string
	cfg := providerclient.Config{BreakerFailures: 4, BreakerOpenTimeout: time.Hour,
		OnBreakerStateChange: func(lane providerclient.Lane, from, to string) {
			mu.Lock()
			changes = append(changes, string(lane)+" "+from+"→"+to)
			mu.Unlock()
		}}
	c := providerclient.WithBreaker(h, cfg)
	ctx := context.Background()
	for i := 0; i < 4; i++ {
		if _, err := c.SendPix(ctx, providerclient.PayoutRequest{ID: "p"}); !errors.Is(err, providerclient.ErrUnknownOutcome) {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	if _, err := c.Refund(ctx, providerclient.RefundRequest{ID: "r"}); !errors.Is(err, providerclient.ErrBreakerOpen) {
		t.Fatalf("a refund after the sends opened their lane: %v, want the breaker open", err)
	}
	for _, lane := range providerclient.Lanes {
		want := "closed"
		if lane == providerclient.LaneSend {
			want = "open"
		}
		if got := providerclient.BreakerState(c, lane); got != want {
			t.Errorf("%s lane's breaker %s, want %s", lane, got, want)
		}
	}
	for i := 0; i < 10; i++ {
		if tx, err := c.Read(ctx, providerclient.Ref{Kind: providerclient.KindCharge, ID: "c"}); err != nil || tx.Status != providerclient.StatusCompleted {
			t.Fatalf("a read while sends are refused: %v", err)
		}
	}
	if _, err := c.Balance(ctx); err != nil {
		t.Fatalf("the balance while sends are refused: %v", err)
	}
	if _, err := c.CreateCharge(ctx, providerclient.ChargeRequest{ID: "c"}); err != nil {
		t.Fatalf("a charge while sends are refused: %v", err)
	}
	if h.calls[providerclient.OpRead] != 10 || h.calls[providerclient.OpRefund] != 0 {
		t.Fatalf("calls %v: want the 10 reads sent and no refund", h.calls)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"send closed→open"}; !slices.Equal(changes, want) {
		t.Fatalf("transitions %v, want %v", changes, want)
	}
}

func TestLaneOf(t *testing.T) {
	for op, want := range map[string]providerclient.Lane{
		providerclient.OpCharge:           providerclient.LaneCreate,
		providerclient.OpPayout:           providerclient.LaneSend,
		providerclient.OpRefund:           providerclient.LaneSend,
		providerclient.OpDefendInfraction: providerclient.LaneSend,
		providerclient.OpRead:             providerclient.LaneRead,
		providerclient.OpReadInfraction:   providerclient.LaneRead,
		providerclient.OpListInfractions:  providerclient.LaneRead,
		providerclient.OpLookupKey:        providerclient.LaneRead,
		providerclient.OpBalance:          providerclient.LaneRead,
		providerclient.OpStatement:        providerclient.LaneStatement,
	} {
		if got := providerclient.LaneOf(op); got != want {
			t.Errorf("LaneOf(%q) = %s, want %s", op, got, want)
		}
	}
}
