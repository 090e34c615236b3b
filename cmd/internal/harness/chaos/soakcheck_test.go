package chaos

import (
	"strings"
	"testing"
)

// cleanRun is a small drained run the checker must find clean: integrator
// Loja A (cash-in fixed 1.00, cash-out fixed 0.50, R$ 100.00 credited)
// had a charge of R$ 10.00 paid at default, refunded R$ 2.00 there and
// disputed by an agreed infraction of R$ 3.00 returned by the sandbox; a
// withdrawal of R$ 5.00 completed at b, written with PixGate's hyphens;
// a withdrawal of R$ 4.00 to a key the sandbox failed; a charge of R$ 8.00
// at c that expired. The MED return took R$ 1.00 more than was blocked:
// its wallet owes it.
func cleanRun(t *testing.T) checkInput {
	t.Helper()
	in, out := mustFee(t, "fixed:1.00"), mustFee(t, "fixed:0.50")
	reading := func(p string, reported, float int64) floatReading {
		return floatReading{provider: p, reported: reported, float: float, readable: true}
	}
	return checkInput{
		integrators: []checkIntegrator{{name: "Loja A", credit: 10_000, in: in, out: out}},
		asked: map[askKey]askedRec{
			{chargeKind, 0, "e-c1"}: {1000, true}, {chargeKind, 0, "e-c2"}: {800, true},
			{withdrawalKind, 0, "e-w1"}: {500, true}, {withdrawalKind, 0, "e-w2"}: {400, true},
			{refundKind, 0, "e-r1"}: {200, true},
		},
		sandbox: []sbTxn{
			{provider: "default", typ: "RECEIVEPIX", id: "sb-c1", externalID: "c1-id", status: "PAID", amount: 1000},
			{provider: "default", typ: "REFUND", id: "sb-r1", externalID: "r1-id", pixID: "sb-c1", status: "COMPLETED", amount: 200},
			{provider: "default", typ: "INFRACTION", id: "sb-i1", pixID: "sb-c1", status: "AGREED", amount: 300},
			{provider: "default", typ: "MED_RETURN", id: "sb-m1", pixID: "sb-c1", status: "COMPLETED", amount: 300},
			{provider: "default", typ: "PAYMENT", id: "sb-w2", externalID: "w2-id", status: "FAILED", amount: 400},
			{provider: "b", typ: "PAYMENT", id: "w1id", externalID: "w1id", status: "COMPLETED", amount: 500},
			{provider: "c", typ: "RECEIVEPIX", id: "c2-id", externalID: "c2-id", status: "EXPIRED", amount: 800},
		},
		records: []pgRec{
			{kind: "charge", id: "c1-id", externalID: "e-c1", provider: "default", status: "PAID", amount: 1000, fee: 100, effect: 900},
			{kind: "refund", id: "r1-id", externalID: "e-r1", provider: "default", status: "COMPLETED", amount: 200, fee: 50, effect: -250},
			{kind: "infraction", id: "i1-id", provider: "default", providerID: "sb-i1", status: "AGREED", amount: 300},
			{kind: "med_return", id: "m1-id", provider: "default", providerID: "sb-m1", status: "COMPLETED", amount: 300, effect: -300},
			{kind: "withdrawal", id: "w2-id", externalID: "e-w2", provider: "default", status: "FAILED", amount: 400, fee: 50},
			{kind: "withdrawal", id: "w1-id", externalID: "e-w1", provider: "b", status: "COMPLETED", amount: 500, fee: 50, effect: -550},
			{kind: "charge", id: "c2-id", externalID: "e-c2", provider: "c", status: "EXPIRED", amount: 800, fee: 100},
		},
		// 100.00 + 9.00 − 5.50 − 2.50 − 3.00 = 98.00, one of which owed.
		wallets: []soakWallet{{available: 9_900, debt: 100}},
		start: map[string]floatReading{"default": reading("default", 100_000_000, 0), "b": reading("b", 100_000_000, 0),
			"c": reading("c", 100_000_000, 0)},
		end: map[string]floatReading{"default": reading("default", 100_000_500, 500), "b": reading("b", 99_999_500, -500),
			"c": reading("c", 100_000_000, 0)},
		floats: map[string]int64{"default": 500, "b": -500, "c": 0},
	}
}

func mustFee(t *testing.T, rule string) fee {
	t.Helper()
	f, err := parseFee(rule)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCheckerFindsACleanRunClean(t *testing.T) {
	res := check(cleanRun(t))
	for k := range numFindings {
		if len(res.found[k]) > 0 {
			t.Errorf("%s: %v", k, res.found[k])
		}
	}
	d, b := res.providers["default"], res.providers["b"]
	if d.txns != 5 || d.chargesPaid != 1 || d.paidIn != 1000 || d.paidOut != 200 || d.returned != 300 || d.moved != 500 ||
		d.infractions["AGREED"] != 1 || d.payoutsFailed != 1 || b.paidOut != 500 || b.floatMoved != -500 {
		t.Errorf("totals: default %+v, b %+v", d, b)
	}
	if len(res.wallets) != 1 || res.wallets[0].implied != 9_800 || res.records["charge"] != 2 {
		t.Errorf("wallets %+v, records %v", res.wallets, res.records)
	}
}

func TestCheckerFindsEachFinding(t *testing.T) {
	byID := func(in *checkInput, id string) *pgRec {
		for i := range in.records {
			if in.records[i].id == id {
				return &in.records[i]
			}
		}
		t.Fatalf("no record %s", id)
		return nil
	}
	txn := func(in *checkInput, provider, id string) *sbTxn {
		for i := range in.sandbox {
			if in.sandbox[i].provider == provider && in.sandbox[i].id == id {
				return &in.sandbox[i]
			}
		}
		t.Fatalf("no transaction %s at %s", id, provider)
		return nil
	}
	for _, tc := range []struct {
		name   string
		change func(*checkInput)
		want   findingKind
		money  int64 // of that finding, -1: not judged
		text   string
	}{
		{"a withdrawal completed at two providers", func(in *checkInput) {
			in.sandbox = append(in.sandbox, sbTxn{provider: "default", typ: "PAYMENT", id: "x", externalID: "w1-id", status: "COMPLETED", amount: 500})
		}, findPaidTwice, 500, "completed 2 times"},
		{"a MED return completed twice", func(in *checkInput) {
			byID(in, "m1-id").providerID = "sb-m2"
			in.sandbox = append(in.sandbox, sbTxn{provider: "default", typ: "MED_RETURN", id: "sb-m2", pixID: "sb-c1", status: "COMPLETED", amount: 300})
			in.sandbox = append(in.sandbox, sbTxn{provider: "default", typ: "MED_RETURN", id: "sb-m2", pixID: "sb-c1", status: "COMPLETED", amount: 300})
		}, findPaidTwice, 300, "med_return"},
		{"a charge paid at its sandbox, expired at PixGate", func(in *checkInput) {
			txn(in, "c", "c2-id").status = "PAID"
		}, findLost, 800, "was paid at c, PixGate has it EXPIRED"},
		{"a charge paid at a provider PixGate does not hold it at", func(in *checkInput) {
			in.sandbox = append(in.sandbox, sbTxn{provider: "b", typ: "RECEIVEPIX", id: "c1id", externalID: "c1id", status: "PAID", amount: 1000})
		}, findLost, 1000, "was paid at b, PixGate records it at default"},
		{"a payment at a sandbox of no PixGate record", func(in *checkInput) {
			in.sandbox = append(in.sandbox, sbTxn{provider: "c", typ: "PAYMENT", id: "zz", externalID: "zz", status: "COMPLETED", amount: 123})
		}, findLost, 123, "no record of PixGate's"},
		{"a withdrawal completed at b, PixGate still PROCESSING", func(in *checkInput) {
			byID(in, "w1-id").status = "PROCESSING"
		}, findLost, 500, "PixGate has it PROCESSING"},
		{"an infraction closed otherwise at the sandbox", func(in *checkInput) {
			byID(in, "i1-id").status = "DISAGREED"
		}, findLost, -1, "is AGREED of R$ 3.00 at default, PixGate has it DISAGREED"},
		{"an infraction PixGate never heard of", func(in *checkInput) {
			in.sandbox = append(in.sandbox, sbTxn{provider: "b", typ: "INFRACTION", id: "sb-i9", status: "OPEN", amount: 10})
		}, findLost, -1, "unknown to PixGate"},
		{"a record answered as created that PixGate does not have", func(in *checkInput) {
			in.asked[askKey{withdrawalKind, 0, "e-w9"}] = askedRec{amount: 100, created: true}
		}, findLost, -1, "e-w9 of Loja A was answered as created"},
		{"a MED return PixGate books on another integrator", func(in *checkInput) {
			in.integrators = append(in.integrators, checkIntegrator{name: "Loja B"})
			in.wallets = append(in.wallets, soakWallet{})
			byID(in, "m1-id").integrator = 1
		}, findLost, -1, "MED_RETURN sb-m1 at default is of a charge (sb-c1) that is not its integrator's at PixGate"},
		{"postings that move less than the sandboxes imply", func(in *checkInput) {
			byID(in, "c1-id").effect = 800
		}, findLost, 100, "its postings move R$ 8.00 on the wallet, the sandboxes imply R$ 9.00"},
		{"a charge PixGate shows REFUNDED that still holds money", func(in *checkInput) {
			byID(in, "c1-id").status = "REFUNDED"
		}, findLost, -1, "is REFUNDED, its sandbox gave R$ 5.00 of R$ 10.00 back"},
		{"a withdrawal COMPLETED at PixGate that no sandbox completed", func(in *checkInput) {
			byID(in, "w2-id").status = "COMPLETED"
		}, findCreated, 400, "no sandbox completed it"},
		{"a charge PixGate credited that no sandbox was paid", func(in *checkInput) {
			byID(in, "c2-id").status = "PAID"
		}, findCreated, 800, "no sandbox was paid"},
		{"postings that move more than the sandboxes imply", func(in *checkInput) {
			byID(in, "w1-id").effect = -500
		}, findCreated, 50, "its postings move R$ -5.00"},
		{"postings of no record", func(in *checkInput) {
			in.stray = map[string]int64{"charge:nope": 700}
		}, findCreated, 700, "no record is charge:nope"},
		{"an infraction at no sandbox", func(in *checkInput) {
			in.records = append(in.records, pgRec{kind: "infraction", id: "i9", provider: "b", providerID: "nope", status: "CANCELLED", amount: 5})
		}, findCreated, -1, "is at no sandbox"},
		{"a withdrawal FAILED at PixGate and completed at its sandbox", func(in *checkInput) {
			byID(in, "w1-id").status = "FAILED"
		}, findFailedPaid, 500, "is FAILED at PixGate, b completed it"},
		{"a float that moved otherwise than the sandbox's ledger", func(in *checkInput) {
			in.floats["default"] = 400
		}, findFloat, -1, "PixGate's float moved R$ 4.00, the sandbox's ledger R$ 5.00"},
		{"a balance that moved otherwise than its ledger", func(in *checkInput) {
			r := in.end["c"]
			r.reported += 10
			in.end["c"] = r
		}, findFloat, -1, "provider c: its balance moved R$ 0.10, its ledger R$ 0.00"},
		{"a balance not read", func(in *checkInput) {
			in.end["b"] = floatReading{provider: "b", err: "503"}
		}, findFloat, -1, "could not be read"},
		{"a wallet a centavo short", func(in *checkInput) {
			in.wallets[0].available--
		}, findWallet, 1, "the sandboxes imply R$ 98.00"},
		{"money left blocked", func(in *checkInput) {
			in.wallets[0].available -= 300
			in.wallets[0].blocked += 300
		}, findWallet, -1, "blocked 3.00 after the drain"},
		{"more debt than the MED returns took", func(in *checkInput) {
			in.wallets[0].available += 400
			in.wallets[0].debt += 400
		}, findWallet, -1, "debt R$ 5.00, its MED returns took R$ 3.00"},
		{"a MED return left PROCESSING at the sandbox", func(in *checkInput) {
			txn(in, "default", "sb-m1").status = "PROCESSING"
			byID(in, "m1-id").status = "PROCESSING"
			byID(in, "m1-id").effect = 0
			in.wallets[0].available += 300
			in.floats["default"] += 300
			r := in.end["default"]
			r.reported += 300
			in.end["default"] = r
		}, findNotFinal, -1, "MED_RETURN sb-m1 at default is still PROCESSING"},
		{"a charge never asked for", func(in *checkInput) {
			in.records = append(in.records, pgRec{kind: "charge", id: "c9", externalID: "e-c9", provider: "b", status: "EXPIRED", amount: 100, fee: 100})
		}, findNotAsked, -1, "was never asked for"},
		{"a withdrawal of another amount", func(in *checkInput) {
			in.asked[askKey{withdrawalKind, 0, "e-w2"}] = askedRec{amount: 401, created: true}
		}, findNotAsked, -1, "R$ 4.01 asked for, PixGate has R$ 4.00"},
		{"a fee off the integrator's rule", func(in *checkInput) {
			byID(in, "c2-id").fee = 99
		}, findNotAsked, -1, "the integrator's rule makes R$ 1.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := cleanRun(t)
			tc.change(&in)
			res := check(in)
			got := res.found[tc.want]
			if len(got) == 0 {
				t.Fatalf("no %s finding; found %v", tc.want, res.found)
			}
			if !strings.Contains(strings.Join(got, "\n"), tc.text) {
				t.Errorf("%s findings %q, want one saying %q", tc.want, got, tc.text)
			}
			if tc.money >= 0 && res.money[tc.want] != tc.money {
				t.Errorf("%s: %d centavos, want %d", tc.want, res.money[tc.want], tc.money)
			}
			if res.clean() {
				t.Error("clean() with findings")
			}
		})
	}
}
