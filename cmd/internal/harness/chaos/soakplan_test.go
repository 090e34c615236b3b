package chaos

import (
	"reflect"
	"testing"
	"time"
)

var testShape = planShape{ops: 20_000, rate: 40, integrators: 5, lean: 4}

func TestTheSameSeedDrawsTheSamePlan(t *testing.T) {
	a, b := newPlan(42, testShape), newPlan(42, testShape)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two plans of seed 42 differ")
	}
	if c := newPlan(43, testShape); reflect.DeepEqual(a.Ops, c.Ops) || reflect.DeepEqual(a.Faults, c.Faults) {
		t.Fatal("seeds 42 and 43 drew the same operations or faults")
	}
	// Another rate moves the same operations in time, nothing else.
	slow := newPlan(42, planShape{ops: 20_000, rate: 20, integrators: 5, lean: 4})
	if len(slow.Ops) != len(a.Ops) || slow.Duration != 2*a.Duration {
		t.Fatalf("at half the rate: %d operations over %s, want %d over %s", len(slow.Ops), slow.Duration, len(a.Ops), 2*a.Duration)
	}
}

func TestAPlanHoldsToItsRules(t *testing.T) {
	p := newPlan(7, testShape)
	if len(p.Ops) != testShape.ops || p.Duration != 500*time.Second {
		t.Fatalf("%d operations over %s", len(p.Ops), p.Duration)
	}
	ops, faults, _ := p.counts()
	for k := range numOpKinds {
		if ops[k] == 0 {
			t.Errorf("no %s in 20000 operations", k)
		}
	}
	infracted := map[int]bool{}
	refunds := map[int]int{}
	var unpaid, leanInfractions, failing, refusedKeys int
	for i, op := range p.Ops {
		if i > 0 && op.At < p.Ops[i-1].At {
			t.Fatalf("op %d starts before op %d", i, i-1)
		}
		switch op.Kind {
		case opCharge:
			if !op.Pay {
				unpaid++
				if op.Expiration < 60 || op.Expiration > 120 {
					t.Errorf("op %d: an unpaid charge expiring after %d s", i, op.Expiration)
				}
			}
		case opWithdrawal:
			if op.Integrator == testShape.lean {
				t.Errorf("op %d: a withdrawal of the lean integrator that is no sweep", i)
			}
			switch op.Key {
			case keyFailing:
				failing++
			case keyRefused:
				refusedKeys++
			}
		case opSweep:
			if op.Integrator != testShape.lean {
				t.Errorf("op %d: a sweep of integrator %d", i, op.Integrator)
			}
		case opRefund, opInfraction:
			c := p.Ops[op.Target]
			age := refundMinAge
			if op.Kind == opInfraction {
				age = infractionAge
				if infracted[op.Target] {
					t.Errorf("op %d: a second infraction on charge %d", i, op.Target)
				}
				infracted[op.Target] = true
				if op.Amount > c.Amount || op.Result == "" {
					t.Errorf("op %d: infraction of %d on a charge of %d, result %q", i, op.Amount, c.Amount, op.Result)
				}
				if c.Integrator == testShape.lean {
					leanInfractions++
				}
			} else {
				if refunds[op.Target]++; refunds[op.Target] > refundsPerCharge {
					t.Errorf("op %d: charge %d refunded a third time", i, op.Target)
				}
				if op.Amount < 1 || op.Amount > c.Amount {
					t.Errorf("op %d: refund of %d of a charge of %d", i, op.Amount, c.Amount)
				}
			}
			if op.Target >= i || c.Kind != opCharge || !c.Pay || c.At+c.Delay+age > op.At || op.Integrator != c.Integrator {
				t.Errorf("op %d (%s) targets op %d: %+v", i, op.Kind, op.Target, c)
			}
		case opLookup:
			if op.Target >= i || p.Ops[op.Target].Kind == opLookup || p.Ops[op.Target].Kind == opBalance {
				t.Errorf("op %d looks up op %d (%s)", i, op.Target, p.Ops[op.Target].Kind)
			}
		}
	}
	if unpaid == 0 || leanInfractions == 0 || failing == 0 || refusedKeys == 0 {
		t.Errorf("unpaid charges %d, infractions on the lean integrator %d, failing keys %d, refused keys %d: want some of each",
			unpaid, leanInfractions, failing, refusedKeys)
	}
	var last time.Duration
	for i, f := range p.Faults {
		if f.At < faultWarmUp || f.At < last || f.For < 3*time.Second || f.For > 30*time.Second || f.At+f.For > p.Duration {
			t.Errorf("fault %d (%s) at %s for %s overlaps or leaves the load", i, f, f.At, f.For)
		}
		last = f.At + f.For
		if f.Kind.onProvider() && (f.Target < 0 || f.Target >= len(soakProviders)) || !f.Kind.onProvider() && f.Target > 1 {
			t.Errorf("fault %d (%s) on target %d", i, f.Kind, f.Target)
		}
	}
	_, faults, _ = newPlan(7, planShape{ops: 100_000, rate: 40, integrators: 5, lean: 4}).counts()
	for k := range numFaultKinds {
		if faults[k] == 0 {
			t.Errorf("no fault %q in a plan of 100000 operations", k)
		}
	}
	firsts := 0
	for i, r := range p.Routes {
		if r.At == 0 {
			firsts++
		}
		for _, route := range [][]int{r.Charges, r.Withdrawals} {
			seen := map[int]bool{}
			for _, pr := range route {
				if seen[pr] {
					t.Errorf("route change %d names a provider twice: %v", i, route)
				}
				seen[pr] = true
			}
			if len(route) == 0 || len(route) > len(soakProviders) {
				t.Errorf("route change %d: %v", i, route)
			}
		}
	}
	if firsts != testShape.integrators || len(p.Routes) < firsts+5 {
		t.Errorf("%d routes set at the start, %d changes", firsts, len(p.Routes)-firsts)
	}
}

func TestFaultSetsNameTheFacesRoutes(t *testing.T) {
	for _, tc := range []struct {
		f    planFault
		want map[string]any
	}{
		{planFault{Kind: faultLostAnswers, Target: 1, Rate: 0.5},
			map[string]any{"timeout_rate": 0.5, "routes": []string{"/v2/cob/{txid}", "/v3/gn/pix/{idEnvio}", "/v2/pix/{e2eid}/devolucao/{id}"}}},
		{planFault{Kind: faultReadsFailing, Target: 2, Rate: 0.7},
			map[string]any{"error_rate": 0.7, "routes": []string{"/api/v1/charge/{id}", "/api/v1/payment/{id}", "/api/v1/refund/{id}", "/api/v1/transaction"}}},
		{planFault{Kind: faultLostAnswers, Target: 0, Rate: 0.3},
			map[string]any{"timeout_rate": 0.3, "routes": []string{"/v2/pix/qrcode", "/v2/pix/payment", "/v2/pix/refund"}}},
		{planFault{Kind: faultSlow, Target: 0, Latency: 4500 * time.Millisecond}, map[string]any{"latency_ms": int64(4500)}},
		{planFault{Kind: faultReorderNotifications, Target: 2, Copies: 3},
			map[string]any{"duplicate_notifications": 3, "out_of_order_notifications": true}},
		{planFault{Kind: faultKillWorker, Target: 1}, nil},
	} {
		if got := faultSet(tc.f); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.f, got, tc.want)
		}
	}
	if s := (planFault{Kind: faultKillAPI, Target: 1, For: 12 * time.Second}).String(); s != "API killed on api-2 for 12 s" {
		t.Errorf("a kill reads %q", s)
	}
	if s := routeNames([]int{2, 0}); s != "c,default" {
		t.Errorf("route %q", s)
	}
}
