package load

import (
	"bufio"
	"strings"
	"testing"
)

// TestCounterIn: the statements counter is read from its own sample line,
// not from its HELP or TYPE lines nor from a counter whose name it begins.
func TestCounterIn(t *testing.T) {
	page := `# HELP pixgate_sql_statements_total SQL statements sent
# TYPE pixgate_sql_statements_total counter
pixgate_sql_statements_total_other 7
pixgate_sql_statements_total 1.234567e+06
`
	n, ok := counterIn(bufio.NewScanner(strings.NewReader(page)), statementsMetric)
	if !ok || n != 1_234_567 {
		t.Fatalf("got %d, %v; want 1234567", n, ok)
	}
	if _, ok := counterIn(bufio.NewScanner(strings.NewReader("other 1\n")), statementsMetric); ok {
		t.Fatal("found a counter the page lacks")
	}
}
