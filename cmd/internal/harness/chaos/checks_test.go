package chaos

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// world is a small run in which everything went right: a charge paid and
// credited, a withdrawal completed, one to the failing key failed, a
// refund of part of the charge, and a charge request PixGate refused.
func world(t *testing.T) ([]record, []*integrator, facts) {
	t.Helper()
	in := &integrator{name: "Loja", cashIn: "percent:1.5", cashOut: "fixed:0.50", credit: 100_000}
	var err error
	if in.in, err = parseFee(in.cashIn); err != nil {
		t.Fatal(err)
	}
	if in.out, err = parseFee(in.cashOut); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	recs := []record{
		{kind: chargeKind, externalID: "c1", amount: 2000, answer: created, started: at, paidAt: at.Add(time.Second)},
		{kind: withdrawalKind, externalID: "w1", amount: 1000, answer: created, started: at},
		{kind: withdrawalKind, externalID: "w2", amount: 700, answer: created, started: at, failKey: true},
		{kind: refundKind, externalID: "r1", amount: 500, answer: created, started: at.Add(10 * time.Second)},
		{kind: chargeKind, externalID: "c2", amount: 900, answer: refused, started: at},
	}
	recs[3].charge = &recs[0]
	pg := func(k kind, ext, id, status string, amount, fee, effect int64, final time.Duration) *pgRecord {
		return &pgRecord{kind: k, externalID: ext, id: id, status: status, amount: amount, fee: fee, effect: effect,
			createdAt: at, finalAt: at.Add(final), provider: "default"}
	}
	f := facts{
		pg: map[string]*pgRecord{
			extKey(chargeKind, 0, "c1"):     pg(chargeKind, "c1", "id-c1", "PAID", 2000, 30, 1970, 3*time.Second),
			extKey(withdrawalKind, 0, "w1"): pg(withdrawalKind, "w1", "id-w1", "COMPLETED", 1000, 50, -1050, 2*time.Second),
			extKey(withdrawalKind, 0, "w2"): pg(withdrawalKind, "w2", "id-w2", "FAILED", 700, 50, 0, 2*time.Second),
			extKey(refundKind, 0, "r1"):     pg(refundKind, "r1", "id-r1", "COMPLETED", 500, 50, -550, 12*time.Second),
		},
		events: map[eventKey]*delivery{
			{Type: "RECEIVEPIX", ID: "id-c1", Status: "PAID"}:   {IDs: map[string]bool{"pb1": true}, Delivered: true},
			{Type: "PAYMENT", ID: "id-w1", Status: "COMPLETED"}: {IDs: map[string]bool{"pb2": true}, Delivered: true},
			{Type: "PAYMENT", ID: "id-w2", Status: "FAILED"}:    {IDs: map[string]bool{"pb3": true}, Delivered: true},
			{Type: "REFUND", ID: "id-r1", Status: "COMPLETED"}:  {IDs: map[string]bool{"pb4": true}, Delivered: true},
		},
		wallets: []wallet{{available: 100_000 + 1970 - 1050 - 550}},
	}
	return recs, []*integrator{in}, f
}

// providerLedger is the provider's side of world.
func providerLedger() []providerTxn {
	return []providerTxn{
		{"RECEIVEPIX", "id-c1", "PAID", 2000, "default"},
		{"PAYMENT", "id-w1", "COMPLETED", 1000, "default"},
		{"PAYMENT", "id-w2", "FAILED", 700, "default"},
		{"REFUND", "id-r1", "COMPLETED", 500, "default"},
		{"RECEIVEPIX", "id-unpaid", "PENDING", 100, "default"},
	}
}

func TestEvaluateACleanRun(t *testing.T) {
	for _, withLedger := range []bool{false, true} {
		recs, ins, f := world(t)
		if withLedger {
			f.provider = providerLedger()
		}
		vs, global := evaluate(recs, ins, f)
		if len(global) != 0 {
			t.Fatalf("ledger %v: global problems %v", withLedger, global)
		}
		for i, v := range vs {
			if v.diff != 0 || v.duplicated != 0 || v.nonFinal || v.missing != 0 || len(v.problems) != 0 {
				t.Fatalf("ledger %v: record %s judged %+v", withLedger, recs[i].externalID, v)
			}
		}
		if vs[0].latency != 2*time.Second || vs[3].latency != 12*time.Second {
			t.Fatalf("latencies %v and %v, want 2 s from the payment and 12 s from the creation", vs[0].latency, vs[3].latency)
		}
	}
}

func TestEvaluateFindsWhatWentWrong(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(recs []record, f *facts)
		check func(t *testing.T, vs []verdict, global []string)
	}{
		{"a paid charge never credited is money lost and not final",
			func(_ []record, f *facts) {
				c := f.pg[extKey(chargeKind, 0, "c1")]
				c.status, c.effect, c.finalAt = "PENDING", 0, time.Time{}
				f.wallets[0].available -= 1970
				delete(f.events, eventKey{Type: "RECEIVEPIX", ID: "id-c1", Status: "PAID"})
			},
			func(t *testing.T, vs []verdict, global []string) {
				if vs[0].diff != -1970 || !vs[0].nonFinal || vs[0].missing != 0 {
					t.Fatalf("charge verdict %+v", vs[0])
				}
				wantGlobal(t, global, "wallet of Loja")
			}},
		{"a completed withdrawal released is money created",
			func(_ []record, f *facts) {
				w := f.pg[extKey(withdrawalKind, 0, "w1")]
				w.status, w.effect = "FAILED", 0
				f.wallets[0].available += 1050
			},
			func(t *testing.T, vs []verdict, global []string) {
				if vs[1].diff != 1050 || !hasProblem(vs[1], "FAILED, but the money moved") {
					t.Fatalf("withdrawal verdict %+v", vs[1])
				}
				wantGlobal(t, global, "wallet of Loja")
			}},
		{"the provider paying twice is money duplicated",
			func(_ []record, f *facts) {
				f.provider = append(providerLedger(), providerTxn{"PAYMENT", "id-w1", "COMPLETED", 1000, "default"})
			},
			func(t *testing.T, vs []verdict, _ []string) {
				if vs[1].duplicated != 1000 {
					t.Fatalf("withdrawal verdict %+v", vs[1])
				}
			}},
		{"a withdrawal sent at both providers is money duplicated",
			func(_ []record, f *facts) {
				// The efi contract carries PixGate's id without its hyphens.
				f.provider = append(providerLedger(), providerTxn{"PAYMENT", "idw1", "COMPLETED", 1000, "b"})
			},
			func(t *testing.T, vs []verdict, global []string) {
				if vs[1].duplicated != 1000 || !hasProblem(vs[1], "COMPLETED at provider b, PixGate records it at default") || len(global) != 0 {
					t.Fatalf("withdrawal verdict %+v, global %v", vs[1], global)
				}
			}},
		{"a withdrawal at the second provider alone, under its plain id",
			func(_ []record, f *facts) {
				f.provider = providerLedger()
				f.provider[1] = providerTxn{"PAYMENT", "idw1", "COMPLETED", 1000, "b"}
				f.pg[extKey(withdrawalKind, 0, "w1")].provider = "b"
			},
			func(t *testing.T, vs []verdict, global []string) {
				if vs[1].duplicated != 0 || vs[1].diff != 0 || len(vs[1].problems) != 0 || vs[1].provider != "b" || len(global) != 0 {
					t.Fatalf("withdrawal verdict %+v, global %v", vs[1], global)
				}
			}},
		{"money moved at a provider other than the one PixGate records",
			func(_ []record, f *facts) {
				f.provider = providerLedger()
				f.provider[0].provider = "b"
			},
			func(t *testing.T, vs []verdict, _ []string) {
				if vs[0].diff != 0 || !hasProblem(vs[0], "PAID at provider b, PixGate records it at default") {
					t.Fatalf("charge verdict %+v", vs[0])
				}
			}},
		{"the provider failed what PixGate completed",
			func(_ []record, f *facts) {
				f.provider = providerLedger()
				f.provider[1].status = "FAILED"
			},
			func(t *testing.T, vs []verdict, _ []string) {
				if vs[1].diff != -1050 || !hasProblem(vs[1], "COMPLETED, but the money moved at the provider: false") {
					t.Fatalf("withdrawal verdict %+v", vs[1])
				}
			}},
		{"a charge the payer paid that the provider does not have",
			func(_ []record, f *facts) { f.provider = providerLedger()[1:] },
			func(t *testing.T, vs []verdict, _ []string) {
				if !hasProblem(vs[0], "paid at the provider: false, as the payer saw it: true") {
					t.Fatalf("charge verdict %+v", vs[0])
				}
			}},
		{"postbacks never delivered, or delivered under two ids",
			func(_ []record, f *facts) {
				f.events[eventKey{Type: "PAYMENT", ID: "id-w2", Status: "FAILED"}].Delivered = false
				delete(f.events, eventKey{Type: "REFUND", ID: "id-r1", Status: "COMPLETED"})
				f.events[eventKey{Type: "PAYMENT", ID: "id-w1", Status: "COMPLETED"}].IDs["pb9"] = true
			},
			func(t *testing.T, vs []verdict, global []string) {
				if vs[2].missing != 1 || vs[3].missing != 1 || vs[1].missing != 0 {
					t.Fatalf("missing %d %d %d", vs[1].missing, vs[2].missing, vs[3].missing)
				}
				wantGlobal(t, global, "delivered under 2 ids")
			}},
		{"a postback of a status the record never had",
			func(_ []record, f *facts) {
				f.events[eventKey{Type: "PAYMENT", ID: "id-w2", Status: "COMPLETED"}] = &delivery{IDs: map[string]bool{"x": true}, Delivered: true}
			},
			func(t *testing.T, _ []verdict, global []string) {
				wantGlobal(t, global, "postback PAYMENT id-w2 COMPLETED, but the record is FAILED")
			}},
		{"records nobody asked for, and provider money for no record",
			func(_ []record, f *facts) {
				f.pg[extKey(withdrawalKind, 0, "ghost")] = &pgRecord{kind: withdrawalKind, externalID: "ghost", id: "id-g", status: "COMPLETED"}
				f.provider = append(providerLedger(), providerTxn{"PAYMENT", "id-nobody", "COMPLETED", 300, "default"})
			},
			func(t *testing.T, _ []verdict, global []string) {
				wantGlobal(t, global, "which the load never asked for")
				wantGlobal(t, global, "for no PixGate record")
			}},
		{"a record answered as created that PixGate lost",
			func(_ []record, f *facts) { delete(f.pg, extKey(withdrawalKind, 0, "w2")) },
			func(t *testing.T, vs []verdict, _ []string) {
				if !hasProblem(vs[2], "missing from PixGate") {
					t.Fatalf("verdict %+v", vs[2])
				}
			}},
		{"a fee PixGate computed differently",
			func(_ []record, f *facts) { f.pg[extKey(chargeKind, 0, "c1")].fee = 31 },
			func(t *testing.T, vs []verdict, _ []string) {
				if !hasProblem(vs[0], "fee 31, want 2000 and 30") {
					t.Fatalf("verdict %+v", vs[0])
				}
			}},
		{"a charge refunded in full must be REFUNDED",
			func(recs []record, f *facts) {
				recs[3].amount = 2000
				r := f.pg[extKey(refundKind, 0, "r1")]
				r.amount, r.effect = 2000, -2050
				f.wallets[0].available -= 1500
			},
			func(t *testing.T, vs []verdict, global []string) {
				if !hasProblem(vs[0], "PAID, refunds completed R$ 20.00 of R$ 20.00") || len(global) != 0 {
					t.Fatalf("verdict %+v, global %v", vs[0], global)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, ins, f := world(t)
			c.spoil(recs, &f)
			vs, global := evaluate(recs, ins, f)
			c.check(t, vs, global)
		})
	}
}

func hasProblem(v verdict, part string) bool {
	for _, p := range v.problems {
		if strings.Contains(p, part) {
			return true
		}
	}
	return false
}

func wantGlobal(t *testing.T, global []string, part string) {
	t.Helper()
	for _, g := range global {
		if strings.Contains(g, part) {
			return
		}
	}
	t.Fatalf("no global problem with %q in %v", part, global)
}

func TestReais(t *testing.T) {
	for c, want := range map[int64]string{0: "0.00", 5: "0.05", 1234: "12.34", -1050: "-10.50", 100_000_000: "1000000.00"} {
		if got := reais(c); got != want {
			t.Errorf("reais(%d) = %s, want %s", c, got, want)
		}
	}
	for s, want := range map[string]int64{"12.5": 1250, "12.50": 1250, "0": 0, "-3.01": -301, "1000000.00": 100_000_000} {
		if got := centavos(json.Number(s)); got != want {
			t.Errorf("centavos(%s) = %d, want %d", s, got, want)
		}
	}
}
