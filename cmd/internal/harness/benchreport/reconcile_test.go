package benchreport

import (
	"bytes"
	"strings"
	"testing"
)

func TestReconcileSection(t *testing.T) {
	out := `goos: linux
cpu: AMD EPYC
BenchmarkReconcileDay-2   	       1	12500000000 ns/op	     80000 lines/s	      1000000 lines	         3.5 loadavg-1m	       41.2 peak-RSS-MB	    400000 raw-lines/s	         0.2000 ×raw
PASS
`
	rc, err := ParseReconciliation(strings.NewReader(out), "go test -bench BenchmarkReconcileDay ./worker/statements/")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	p := &printer{w: &b}
	reconcileSection(p, rc)
	for _, want := range []string{"1,000,000 statement lines", "| 1,000,000 | 12.5 s | 80,000 | 400,000 | 20% | 41.2 MB | 3.50 |",
		"`go test -bench BenchmarkReconcileDay ./worker/statements/`"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the section lacks %q:\n%s", want, b.String())
		}
	}
	if _, err := ParseReconciliation(strings.NewReader("BenchmarkRawHTTP-2 10 100 ns/op\n"), ""); err == nil {
		t.Error("output without the reconciliation benchmark was read")
	}
	if _, err := ParseReconciliation(strings.NewReader("--- FAIL: BenchmarkReconcileDay\n"), ""); err == nil {
		t.Error("a failed run was read")
	}
}
