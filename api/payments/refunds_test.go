package payments

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

func TestRefundable(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	paidAt := func(ago time.Duration) *time.Time { at := now.Add(-ago); return &at }
	paid := storage.Charge{Amount: 10_000, Status: storage.ChargePaid, PaidAt: paidAt(time.Hour)}
	with := func(edit func(*storage.Charge)) storage.Charge { c := paid; edit(&c); return c }
	tests := []struct {
		name   string
		charge storage.Charge
		amount money.Money
		rule   error // nil: refundable
		field  string
	}{
		{"part of a paid charge", paid, 1, nil, ""},
		{"all of a paid charge", paid, 10_000, nil, ""},
		{"more than the charge", paid, 10_001, ErrRefundExceedsCharge, "amount"},
		{"the rest after a partial refund", with(func(c *storage.Charge) { c.RefundedAmount = 4_000 }), 6_000, nil, ""},
		{"more than the rest", with(func(c *storage.Charge) { c.RefundedAmount = 4_000 }), 6_001, ErrRefundExceedsCharge, "amount"},
		{"nothing left while a full refund is in flight", with(func(c *storage.Charge) { c.RefundedAmount = 10_000 }), 1, ErrRefundExceedsCharge, "amount"},
		{"pending", with(func(c *storage.Charge) { c.Status, c.PaidAt = storage.ChargePending, nil }), 1, ErrChargeNotPaid, "pix_id"},
		{"expired", with(func(c *storage.Charge) { c.Status, c.PaidAt = storage.ChargeExpired, nil }), 1, ErrChargeNotPaid, "pix_id"},
		{"failed", with(func(c *storage.Charge) { c.Status, c.PaidAt = storage.ChargeFailed, nil }), 1, ErrChargeNotPaid, "pix_id"},
		{"already refunded", with(func(c *storage.Charge) { c.Status, c.RefundedAmount = storage.ChargeRefunded, 10_000 }), 1, ErrChargeNotPaid, "pix_id"},
		{"paid exactly 90 days ago", with(func(c *storage.Charge) { c.PaidAt = paidAt(RefundWindow) }), 1, nil, ""},
		{"paid 90 days and a second ago", with(func(c *storage.Charge) { c.PaidAt = paidAt(RefundWindow + time.Second) }), 1, ErrRefundWindowClosed, "pix_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := refundable(tt.charge, RefundRequest{Amount: tt.amount}, now)
			if tt.rule == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var re *RuleError
			if !errors.Is(err, tt.rule) || !errors.As(err, &re) || re.Field != tt.field || re.Detail == "" {
				t.Fatalf("err = %v, want %v naming %s", err, tt.rule, tt.field)
			}
		})
	}
}

func TestCreateRefund(t *testing.T) {
	ctx, store := context.Background(), newFakeStore()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	s := New(Config{Now: func() time.Time { return now }}, store, nil, nil)
	paidAt, pixID := now.Add(-91*24*time.Hour), "k3v9x2m8q1w7e5r4t6y0u2i8o3p5a7s1"
	id := uuid.New()
	store.charges[id] = &storage.Charge{ID: id, IntegratorID: 7, Amount: 10_000, Status: storage.ChargePaid, PixID: &pixID, PaidAt: &paidAt}
	in := integrator(money.Fixed(0), money.Percent(10_000)) // 1% cash-out

	// The rules are judged with the service's clock.
	if _, _, err := s.CreateRefund(ctx, in, RefundRequest{PixID: pixID, Amount: 100}); !errors.Is(err, ErrRefundWindowClosed) {
		t.Fatalf("refund 91 days after payment: %v", err)
	}
	recent := now.Add(-89 * 24 * time.Hour)
	store.charges[id].PaidAt = &recent
	f, created, err := s.CreateRefund(ctx, in, RefundRequest{PixID: pixID, Amount: 2_550})
	if err != nil || !created || f.Fee != 26 || f.Amount != 2_550 {
		t.Fatalf("refund: %+v, %v, %v; want 25.50 with a fee of 0.26 (1%%, half-up)", f, created, err)
	}
	nr := store.refunds[0]
	want := tasks.RefundSendMessage(nr.ID, 0)
	if nr.ID.Version() != 7 || nr.ChargePixID != pixID || len(nr.Outbox) != 1 || nr.Outbox[0].ID != want.ID || len(nr.RequestHash) != 32 {
		t.Fatalf("new refund %+v: want a UUIDv7, the charge's pix_id and its refund:send message", nr)
	}
	if _, _, err := s.CreateRefund(ctx, in, RefundRequest{PixID: pixID, Amount: 7_451}); !errors.Is(err, ErrRefundExceedsCharge) {
		t.Fatalf("refund over the rest: %v", err)
	}
	other := integrator(money.Fixed(0), money.Fixed(0))
	other.ID = 8
	if _, _, err := s.CreateRefund(ctx, other, RefundRequest{PixID: pixID, Amount: 1}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("another integrator's charge: %v, want not found", err)
	}
}

// v1 names the charge in the path (its id or external_id): the refund is
// the one of its pix_id, and refusals name "charge", not pix_id.
func TestRefundCharge(t *testing.T) {
	ctx, store := context.Background(), newFakeStore()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	s := New(Config{Now: func() time.Time { return now }}, store, nil, nil)
	paidAt, pixID := now.Add(-time.Hour), "k3v9x2m8q1w7e5r4t6y0u2i8o3p5a7s1"
	paid, pending := uuid.New(), uuid.New()
	store.charges[paid] = &storage.Charge{ID: paid, IntegratorID: 7, ExternalID: "order-1", Amount: 10_000, Status: storage.ChargePaid, PixID: &pixID, PaidAt: &paidAt}
	store.charges[pending] = &storage.Charge{ID: pending, IntegratorID: 7, ExternalID: "order-2", Amount: 10_000, Status: storage.ChargeFailed}
	in := integrator(money.Fixed(0), money.Fixed(50))

	f, created, err := s.RefundCharge(ctx, in, "order-1", RefundRequest{Amount: 1_000})
	if err != nil || !created || f.Fee != 50 || store.refunds[0].ChargePixID != pixID {
		t.Fatalf("refund by external_id: %+v, %v, %v", f, created, err)
	}
	// The same request through v2 (by pix_id) has the same fingerprint.
	if v2 := (RefundRequest{PixID: pixID, Amount: 1_000}); string(v2.fingerprint()) != string(store.refunds[0].RequestHash) {
		t.Fatal("a v1 refund and the same v2 refund differ")
	}
	var re *RuleError
	if _, _, err := s.RefundCharge(ctx, in, paid.String(), RefundRequest{Amount: 9_001}); !errors.As(err, &re) || re.Field != "amount" {
		t.Fatalf("over the rest: %v", err)
	}
	if _, _, err := s.RefundCharge(ctx, in, "order-2", RefundRequest{Amount: 1}); !errors.Is(err, ErrChargeNotPaid) ||
		!errors.As(err, &re) || re.Field != "charge" {
		t.Fatalf("a charge never issued: %v, want not PAID naming charge", err)
	}
	if _, _, err := s.RefundCharge(ctx, in, "order-9", RefundRequest{Amount: 1}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("no such charge: %v", err)
	}
	items, _, err := s.ChargeRefunds(ctx, 7, "order-1", storage.ListParams{Limit: 15})
	if err != nil || len(items) != 1 || items[0].ChargeID != paid {
		t.Fatalf("refunds of order-1: %+v, %v", items, err)
	}
	if _, _, err := s.ChargeRefunds(ctx, 8, "order-1", storage.ListParams{Limit: 15}); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("another integrator's charge's refunds: %v", err)
	}
}
