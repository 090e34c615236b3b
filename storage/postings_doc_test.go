package storage

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// The values docs/ledger.md's postings table is evaluated with: every
// expression of the table comes out different.
var docValues = map[string]money.Money{"amount": 10000, "fee": 150, "held": 7000, "p": 2500, "blocked": 4000, "delta": 3300,
	"r": 1300, "shortfall": 2200, "d": 1700, "a": 600, "s": 900, "total": 123456}

// testRecipient is the sub-account a split posting of the table moves
// money to or from: its entries are the table's "recipient" (its
// available balance); s is its part.
const testRecipient = 8

var docSplit = []splitMove{{recipient: testRecipient, amount: 900}}

const docReference = "op-1"

// documentedPostings builds the posting of each cause of the table with
// docValues, and names the builder it comes from.
var documentedPostings = map[string]struct {
	builder string
	build   func(v map[string]money.Money) ledger.Transaction
}{
	"`pixgate wallet credit`": {"walletAdjusted", func(v map[string]money.Money) ledger.Transaction {
		return walletAdjusted(testIntegrator, v["amount"], "", docReference)
	}},
	"`pixgate wallet debit`": {"walletAdjusted", func(v map[string]money.Money) ledger.Transaction {
		return walletAdjusted(testIntegrator, -v["amount"], "", docReference)
	}},
	"withdrawal created": {"withdrawalCreated", func(v map[string]money.Money) ledger.Transaction {
		return withdrawalCreated(testID, testIntegrator, v["amount"], v["fee"])
	}},
	"withdrawal completed": {"transferCompleted", func(v map[string]money.Money) ledger.Transaction {
		return transferCompleted(KindWithdrawal, testID, testIntegrator, testProvider, v["amount"], v["fee"])
	}},
	"withdrawal failed": {"transferFailed", func(v map[string]money.Money) ledger.Transaction {
		return transferFailed(KindWithdrawal, testID, testIntegrator, v["amount"], v["fee"], 0, 0, "")
	}},
	"withdrawal rejected or its approval expired": {"withdrawalRejected", func(v map[string]money.Money) ledger.Transaction {
		return withdrawalRejected(testID, testIntegrator, v["amount"], v["fee"], "")
	}},
	"withdrawal batch created": {"withdrawalBatchCreated", func(v map[string]money.Money) ledger.Transaction {
		return withdrawalBatchCreated(testID, testIntegrator, v["total"])
	}},
	"withdrawal batch rejected or its approval expired": {"withdrawalBatchRejected", func(v map[string]money.Money) ledger.Transaction {
		return withdrawalBatchRejected(testID, testIntegrator, v["total"], "")
	}},
	"charge paid": {"chargePaid", func(v map[string]money.Money) ledger.Transaction {
		return chargePaid(testID, testIntegrator, testProvider, v["amount"], v["fee"], false, 0)
	}},
	"charge paid while its integrator owes a debt": {"chargePaid", func(v map[string]money.Money) ledger.Transaction {
		return chargePaid(testID, testIntegrator, testProvider, v["amount"], v["fee"], false, v["r"])
	}},
	"charge paid under a settlement hold": {"chargePaid", func(v map[string]money.Money) ledger.Transaction {
		return chargePaid(testID, testIntegrator, testProvider, v["amount"], v["fee"], true, 0)
	}},
	"charge hold ended": {"chargeHoldEnded", func(v map[string]money.Money) ledger.Transaction {
		return chargeHoldEnded(testID, testIntegrator, v["held"])
	}},
	"refund created": {"refundCreated", func(v map[string]money.Money) ledger.Transaction {
		reserve, _ := refundCreated(testID, testIntegrator, v["amount"], v["fee"], v["p"])
		return reserve
	}},
	"refund completed": {"transferCompleted", func(v map[string]money.Money) ledger.Transaction {
		return transferCompleted(KindRefund, testID, testIntegrator, testProvider, v["amount"], v["fee"])
	}},
	"refund failed": {"transferFailed", func(v map[string]money.Money) ledger.Transaction {
		return transferFailed(KindRefund, testID, testIntegrator, v["amount"], v["fee"], v["p"], 0, "")
	}},
	"charge paid from another holder's account (same holder)": {"chargePaidByAnotherHolder", func(v map[string]money.Money) ledger.Transaction {
		return chargePaidByAnotherHolder(testID, testIntegrator, testProvider, v["amount"])
	}},
	"infraction opened": {"infractionBlocked", func(v map[string]money.Money) ledger.Transaction {
		return infractionBlocked(testID, testIntegrator, v["p"], v["blocked"]-v["p"])
	}},
	"infraction disagreed or cancelled": {"infractionReleased", func(v map[string]money.Money) ledger.Transaction {
		return infractionReleased(testID, testIntegrator, v["blocked"], v["p"])
	}},
	"infraction agreed (MED return created)": {"medReturnCreated", func(v map[string]money.Money) ledger.Transaction {
		return medReturnCreated(testID, testIntegrator, v["blocked"], v["a"], v["shortfall"])
	}},
	"MED return completed": {"transferCompleted", func(v map[string]money.Money) ledger.Transaction {
		return transferCompleted(KindMedReturn, testID, testIntegrator, testProvider, v["blocked"]+v["a"]+v["shortfall"], 0)
	}},
	"`pixgate provider adjust`": {"floatAdjusted", func(v map[string]money.Money) ledger.Transaction {
		return floatAdjusted(testProvider, v["delta"], "", docReference)
	}},
	"`pixgate reconcile resolve --post-adjustment`": {"reconciliationAdjusted", func(v map[string]money.Money) ledger.Transaction {
		return reconciliationAdjusted(testID, testProvider, v["delta"], "")
	}},
	"split charge paid": {"chargePaid", func(v map[string]money.Money) ledger.Transaction {
		return chargePaid(testID, testIntegrator, testProvider, v["amount"], v["fee"], false, 0, docSplit...)
	}},
	"split charge refunded (refund created)": {"refundCreated", func(v map[string]money.Money) ledger.Transaction {
		reserve, _ := refundCreated(testID, testIntegrator, v["amount"], v["fee"], v["p"], docSplit...)
		return reserve
	}},
	"split charge refund failed": {"transferFailed", func(v map[string]money.Money) ledger.Transaction {
		return transferFailed(KindRefund, testID, testIntegrator, v["amount"], v["fee"], v["p"], 0, "", docSplit...)
	}},
	"split charge returned under MED (MED return created)": {"medReturnCreated", func(v map[string]money.Money) ledger.Transaction {
		return medReturnCreated(testID, testIntegrator, v["blocked"], v["a"], v["shortfall"], docSplit...)
	}},
	"split charge MED return failed": {"transferFailed", func(v map[string]money.Money) ledger.Transaction {
		return transferFailed(KindMedReturn, testID, testIntegrator, v["blocked"]+v["a"]+v["shortfall"], 0, 0, v["d"], "", docSplit...)
	}},
	"MED return failed": {"transferFailed", func(v map[string]money.Money) ledger.Transaction {
		return transferFailed(KindMedReturn, testID, testIntegrator, v["blocked"]+v["a"]+v["shortfall"], 0, 0, v["d"], "")
	}},
}

// docs/ledger.md says what every posting does, and says it right: each row
// of its postings table is a cause whose builder writes exactly that
// reference, kind and those entries, and every builder in postings.go has
// a row.
func TestLedgerDocAgreesWithThePostingBuilders(t *testing.T) {
	rows := postingsTable(t, "../docs/ledger.md")
	seen := map[string]bool{}
	for _, r := range rows {
		c, ok := documentedPostings[r.cause]
		if !ok {
			t.Errorf("docs/ledger.md: cause %s has no builder in documentedPostings", r.cause)
			continue
		}
		seen[r.cause] = true
		got := c.build(docValues)
		reference := strings.NewReplacer("<id>", testID.String(), "<reference>", docReference, "<provider>", testProvider).Replace(r.reference)
		if got.Reference != reference || got.Kind != r.kind {
			t.Errorf("%s: %s writes reference %q, kind %q; the doc says %q, %q", r.cause, c.builder, got.Reference, got.Kind, reference, r.kind)
		}
		want := moves{}
		for account, amount := range docEntries(t, r.cause, r.entries) {
			want[docAccount(account)] = amount
		}
		if m := movesOf(got); !maps.Equal(m, want) {
			t.Errorf("%s: %s posts %v; the doc says %v (%s)", r.cause, c.builder, m, want, r.entries)
		}
	}
	for cause := range documentedPostings {
		if !seen[cause] {
			t.Errorf("docs/ledger.md has no row for %s", cause)
		}
	}
	documented := map[string]bool{}
	for _, c := range documentedPostings {
		documented[c.builder] = true
	}
	for _, b := range postingBuilders(t, "postings.go") {
		if !documented[b] {
			t.Errorf("postings.go: %s builds a posting docs/ledger.md does not show", b)
		}
	}
}

// docAccount is the account an entry of the table names: an integrator's
// kind, a platform account, or float, the float of the provider that holds
// the posting's charge or transfer.
func docAccount(name ledger.Kind) ledger.Account {
	switch {
	case name == "float":
		return ledger.Float(testProvider)
	case name == "recipient":
		return ledger.Of(testRecipient, ledger.Available)
	case slices.Contains(ledger.IntegratorKinds, name):
		return ledger.Of(testIntegrator, name)
	}
	return ledger.Platform(name)
}

type postingRow struct{ cause, reference, kind, entries string }

// postingsTable reads the table under "## Postings".
func postingsTable(t *testing.T, path string) []postingRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Postings\n")
	if !ok {
		t.Fatalf("%s: no Postings section", path)
	}
	var rows []postingRow
	for line := range strings.Lines(section) {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 || strings.HasPrefix(cells[0], "---") || strings.TrimSpace(cells[0]) == "Cause" {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, postingRow{cause: cells[0], reference: strings.Trim(cells[1], "`"), kind: strings.Trim(cells[2], "`"), entries: cells[3]})
	}
	if len(rows) == 0 {
		t.Fatalf("%s: the Postings section has no table", path)
	}
	return rows
}

// docEntries evaluates a row's entries ("reserved −(amount + fee), fees
// +fee") with docValues.
func docEntries(t *testing.T, cause, text string) map[ledger.Kind]money.Money {
	t.Helper()
	out := map[ledger.Kind]money.Money{}
	for _, e := range strings.Split(text, ", ") {
		account, expr, ok := strings.Cut(e, " ")
		if !ok {
			t.Fatalf("%s: entry %q is not 'account ±amount'", cause, e)
		}
		amount, ok := evalDoc(strings.ReplaceAll(expr, "−", "-"))
		if !ok {
			t.Fatalf("%s: cannot read the amount of %q", cause, e)
		}
		if amount != 0 {
			out[ledger.Kind(account)] = amount
		}
	}
	return out
}

// evalDoc reads a signed sum of names of docValues, with parentheses:
// "-(amount + fee - p)", "+fee".
func evalDoc(expr string) (money.Money, bool) {
	tokens := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ", "+", " + ", "-", " - ").Replace(expr))
	var (
		sum   func() (money.Money, bool)
		i     int
		value func() (money.Money, bool)
	)
	value = func() (money.Money, bool) {
		if i >= len(tokens) {
			return 0, false
		}
		tok := tokens[i]
		i++
		switch tok {
		case "+":
			return value()
		case "-":
			v, ok := value()
			return -v, ok
		case "(":
			v, ok := sum()
			if !ok || i >= len(tokens) || tokens[i] != ")" {
				return 0, false
			}
			i++
			return v, true
		}
		v, ok := docValues[tok]
		return v, ok
	}
	sum = func() (money.Money, bool) {
		total, ok := value()
		for ok && i < len(tokens) && (tokens[i] == "+" || tokens[i] == "-") {
			var v money.Money
			v, ok = value() // value reads the sign
			total += v
		}
		return total, ok
	}
	v, ok := sum()
	return v, ok && i == len(tokens)
}

// postingBuilders lists the functions of file that return a
// ledger.Transaction, but posting, which they all call.
func postingBuilders(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Type.Results == nil || fn.Name.Name == "posting" {
			continue
		}
		if sel, ok := fn.Type.Results.List[0].Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Transaction" {
			names = append(names, fn.Name.Name)
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s: no posting builders found", file)
	}
	return names
}
