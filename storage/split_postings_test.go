package storage

import (
	"testing"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/split"
)

func movesFromParts(parts []split.Part) []splitMove {
	out := make([]splitMove, len(parts))
	for i, p := range parts {
		out[i] = splitMove{recipient: p.SubAccount, amount: p.Credited}
	}
	return out
}

// The charge.paid posting of a split charge: a table of splits (percent,
// fixed, mixed, fee bearers, gross and net, rounding, one centavo), each
// posting balanced, the recipients credited their parts and the integrator
// the rest, parts and fee summing to the charge's amount; under a hold and
// with a debt to recover too.
func TestSplitChargePaidPostingIsBalancedAndExact(t *testing.T) {
	pct := func(id, ppm int64) split.Share { return split.Share{SubAccount: id, PPM: ppm} }
	fixed := func(id int64, m money.Money) split.Share { return split.Share{SubAccount: id, Amount: m} }
	bearer := func(s split.Share) split.Share { s.FeeBearer = true; return s }
	tests := []struct {
		name        string
		s           split.Split
		amount, fee money.Money
		debt        money.Money
		held        bool
	}{
		{"percent", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 125000)}}, 10000, 150, 0, false},
		{"fixed", split.Split{Base: split.Net, Recipients: []split.Share{fixed(11, 1000), fixed(12, 2000)}}, 10000, 150, 0, false},
		{"mixed", split.Split{Base: split.Gross, Recipients: []split.Share{pct(11, 250000), fixed(12, 1000), pct(13, 100000)}}, 9999, 150, 0, false},
		{"fee bearers", split.Split{Base: split.Gross, Recipients: []split.Share{bearer(pct(11, 500000)), bearer(fixed(12, 1000)), pct(13, 100000)}}, 10000, 333, 0, false},
		{"gross vs net: net", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 500000)}}, 10000, 200, 0, false},
		{"gross vs net: gross", split.Split{Base: split.Gross, Recipients: []split.Share{pct(11, 500000)}}, 10000, 200, 0, false},
		{"3 x 33.33%", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 333300), pct(12, 333300), pct(13, 333300)}}, 10000, 0, 0, false},
		{"3 x 33.33% of an odd amount", split.Split{Base: split.Gross, Recipients: []split.Share{pct(11, 333300), pct(12, 333300), pct(13, 333300)}}, 10007, 7, 0, false},
		{"one centavo", split.Split{Base: split.Gross, Recipients: []split.Share{pct(11, 500000), pct(12, 500000)}}, 1, 0, 0, false},
		{"two centavos, 1 fee", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 1000000)}}, 2, 1, 0, false},
		{"everything to the recipients", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 600000), pct(12, 400000)}}, 10000, 150, 0, false},
		{"under a settlement hold", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 300000)}}, 10000, 150, 0, true},
		{"integrator owes a debt", split.Split{Base: split.Net, Recipients: []split.Share{pct(11, 300000)}}, 10000, 150, 500000, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, integrator := tt.s.Parts(tt.amount, tt.fee)
			moves := movesFromParts(parts)
			recovered := min(tt.debt, tt.amount-tt.fee-splitTotal(moves)) // as recoverDebt
			tx := chargePaid(testID, testIntegrator, testProvider, tt.amount, tt.fee, tt.held, recovered, moves...)
			if err := tx.Validate(); err != nil {
				t.Fatalf("posting %+v: %v", tx, err)
			}
			m := movesOf(tx)
			credited := ledger.Available
			if tt.held {
				credited = ledger.Pending
			}
			sum := m[ledger.Platform(ledger.Fees)] + m[ledger.Of(testIntegrator, credited)] + m[ledger.Of(testIntegrator, ledger.Debt)]
			for _, p := range parts {
				if got := m[ledger.Of(p.SubAccount, ledger.Available)]; got != p.Credited || got < 0 {
					t.Errorf("recipient %d credited %v, its part is %v", p.SubAccount, got, p.Credited)
				}
				sum += p.Credited
			}
			if m[ledger.Of(testIntegrator, credited)] != integrator-recovered || integrator < 0 {
				t.Errorf("integrator credited %v, want %v", m[ledger.Of(testIntegrator, credited)], integrator-recovered)
			}
			if sum != tt.amount || m[ledger.Float(testProvider)] != -tt.amount {
				t.Errorf("parts, fee and debt sum to %v; the charge is %v", sum, tt.amount)
			}
		})
	}
}

// Refunds and MED returns of a split charge take the recipients' parts
// back, balanced, and a failed one gives them back.
func TestSplitReversalPostingsAreBalanced(t *testing.T) {
	shares := []splitShare{{recipient: 11, credited: 3333}, {recipient: 12, credited: 1000}, {recipient: 13, credited: 1}}
	back := splitReversals(shares, 10000, 2500, nil)
	if splitTotal(back) != 833+250 { // 3333/4 rounded down, 1000/4, 0
		t.Fatalf("a quarter refunded takes back %v", back)
	}
	reserve, fromPending := refundCreated(testID, testIntegrator, 2500, 100, 400, back...)
	if err := reserve.Validate(); err != nil || fromPending != 400 {
		t.Fatalf("refund reserve %+v, %v, from pending %v", reserve, err, fromPending)
	}
	if m := movesOf(reserve); m[ledger.Of(testIntegrator, ledger.Reserved)] != 2600 || m[ledger.Of(11, ledger.Available)] != -833 ||
		m[ledger.Of(testIntegrator, ledger.Available)] != -(2600-400-1083) {
		t.Fatalf("refund reserve moves %v", m)
	}
	failed := transferFailed(KindRefund, testID, testIntegrator, 2500, 100, 400, 0, "", back...)
	if err := failed.Validate(); err != nil || movesOf(failed)[ledger.Of(12, ledger.Available)] != 250 {
		t.Fatalf("refund release %+v, %v", failed, err)
	}
	limited := splitReversals(shares, 10000, 10000, func(r int64) money.Money { return map[int64]money.Money{11: 100, 12: 5000, 13: 0}[r] })
	if len(limited) != 2 || limited[0].amount != 100 || limited[1].amount != 1000 {
		t.Fatalf("a MED return takes back %v", limited)
	}
	med := medReturnCreated(testID, testIntegrator, 4000, 3000, 2000, limited...)
	if err := med.Validate(); err != nil {
		t.Fatal(err)
	}
	if m := movesOf(med); m[ledger.Of(testIntegrator, ledger.Reserved)] != 9000 || m[ledger.Of(testIntegrator, ledger.Available)] != 1100-3000 {
		t.Fatalf("MED return reserve moves %v", m)
	}
}
