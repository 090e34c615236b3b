package chaos

import (
	"testing"
	"time"
)

func TestFeesAsTheLedgerDocumentsThem(t *testing.T) {
	cases := []struct {
		rule   string
		amount int64
		want   int64
	}{
		{"percent:1.5", 2500, 38}, // 37.5 centavos, rounded half-up
		{"percent:1.5", 1001, 15}, // 15.015
		{"percent:1.5", 1, 0},
		{"percent:2.75", 10000, 275},
		{"percent:1.2345", 100000, 1235}, // 1234.5
		{"percent:0", 99999, 0},
		{"percent:100", 123, 123},
		{"fixed:0.50", 1, 50},
		{"fixed:0.99", 100000, 99},
		{"fixed:0", 500, 0},
	}
	for _, c := range cases {
		f, err := parseFee(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		if got := f.on(c.amount); got != c.want {
			t.Errorf("%s of %d = %d, want %d", c.rule, c.amount, got, c.want)
		}
	}
	for _, bad := range []string{"percent", "percent:1.23456", "fixed:0.505", "fixed:-1", "flat:1", "percent:x"} {
		if _, err := parseFee(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRefundableChargesArePaidLongEnoughAndPickedOnce(t *testing.T) {
	now := time.Now()
	m := newModel([]*integrator{{name: "a"}})
	old := &record{kind: chargeKind, externalID: "old", paidAt: now.Add(-time.Minute), refundable: true}
	fresh := &record{kind: chargeKind, externalID: "fresh", paidAt: now, refundable: true}
	unpaid := &record{kind: chargeKind, externalID: "unpaid", refundable: true}
	for _, r := range []*record{old, fresh, unpaid, {kind: withdrawalKind, externalID: "w"}} {
		m.add(r)
	}
	first := func(int) int { return 0 }
	if got := m.pickRefundable(now, 5*time.Second, first); got != old {
		t.Fatalf("picked %v, want the charge paid a minute ago", got)
	}
	if got := m.pickRefundable(now, 5*time.Second, first); got != nil {
		t.Fatalf("picked %s twice or too fresh", got.externalID)
	}
	if got := m.lookup(chargeKind, 0, "fresh"); got != fresh {
		t.Fatalf("lookup = %v", got)
	}
}

func TestSnapshotPointsRefundsAtTheCopiedCharge(t *testing.T) {
	m := newModel([]*integrator{{name: "a"}})
	c := &record{kind: chargeKind, externalID: "c", amount: 100}
	m.add(c)
	m.add(&record{kind: refundKind, externalID: "r", charge: c})
	snap := m.snapshot()
	m.update(func() { c.amount = 999 })
	if snap[1].charge != &snap[0] || snap[1].charge.amount != 100 {
		t.Fatalf("the snapshot's refund points at %p (amount %d), want the copy %p", snap[1].charge, snap[1].charge.amount, &snap[0])
	}
}

func TestRecentCreatedOnlyConfirmed(t *testing.T) {
	m := newModel([]*integrator{{name: "a"}})
	m.add(&record{kind: chargeKind, externalID: "a", answer: unanswered})
	if m.recentCreated(func(int) int { return 0 }) != nil {
		t.Fatal("an unanswered record was offered for lookup")
	}
	ok := &record{kind: chargeKind, externalID: "b", answer: created}
	m.add(ok)
	if got := m.recentCreated(func(int) int { return 0 }); got != ok {
		t.Fatalf("got %v", got)
	}
}

// lookup finds a record by kind, integrator index and external id.
func (m *model) lookup(k kind, integrator int, ext string) *record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byExt[extKey(k, integrator, ext)]
}
