package benchreport

import (
	"bytes"
	"strings"
	"testing"
)

// sample is go test -bench output with two runs of every benchmark the
// report needs (the second run of RawHTTP is slower, so medians average).
const sample = `goos: linux
goarch: amd64
pkg: github.com/pixgate/pixgate/cmd/pixgate
cpu: Test CPU @ 2.00GHz
BenchmarkRawPostgresCommit-2     	    4000	    250000 ns/op	    2222 B/op	      12 allocs/op
BenchmarkRawPostgresCommit-2     	    4000	    350000 ns/op	    2222 B/op	      12 allocs/op
BenchmarkRawRedisPing-2          	   16330	     20000 ns/op	     254 B/op	       6 allocs/op
BenchmarkRawRedisPing-2          	   16330	     20000 ns/op	     254 B/op	       6 allocs/op
BenchmarkRawHTTP-2               	   12700	     25000 ns/op	    5175 B/op	      58 allocs/op
BenchmarkRawHTTP-2               	   12700	     35000 ns/op	    5175 B/op	      58 allocs/op
BenchmarkRawParseFloat-2         	15440312	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkRawParseFloat-2         	15440312	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkReserveWithdrawal-2     	     600	   2000000 ns/op	   18499 B/op	     214 allocs/op
BenchmarkReserveWithdrawal-2     	     600	   2000000 ns/op	   18499 B/op	     214 allocs/op
BenchmarkReserveOneWallet-2      	     300	   4000000 ns/op	   27980 B/op	     239 allocs/op
BenchmarkReserveOneWallet-2      	     300	   4000000 ns/op	   27980 B/op	     239 allocs/op
BenchmarkAPICreateWithdrawal-2   	     400	   2500000 ns/op	   58705 B/op	     549 allocs/op
BenchmarkAPICreateWithdrawal-2   	     400	   2500000 ns/op	   58705 B/op	     549 allocs/op
BenchmarkAPIGetBalance-2         	    2000	    400000 ns/op	   14880 B/op	     206 allocs/op
BenchmarkAPIGetBalance-2         	    2000	    400000 ns/op	   14880 B/op	     206 allocs/op
BenchmarkMoneyParse-2            	 2788137	       100.0 ns/op	       2 B/op	       1 allocs/op
BenchmarkMoneyParse-2            	 2788137	       100.0 ns/op	       2 B/op	       1 allocs/op
BenchmarkFeeCompute-2            	125976678	         2.716 ns/op	       0 B/op	       0 allocs/op
BenchmarkFeeCompute-2            	125976678	         2.716 ns/op	       0 B/op	       0 allocs/op
PASS
ok  	github.com/pixgate/pixgate/cmd/pixgate	16.705s
cpu: Test CPU @ 2.00GHz
BenchmarkChargePaidPipeline-2    	      30	  25000000 ns/op	        20.00 ms-pay-to-paid	  566156 B/op	    7302 allocs/op
--- BENCH: BenchmarkChargePaidPipeline-2
    bench_test.go:1: a log line
BenchmarkChargePaidPipeline-2    	      30	  27000000 ns/op	        24.00 ms-pay-to-paid	  566156 B/op	    7302 allocs/op
BenchmarkChargePaidPipeline-2    	      30	  26000000 ns/op	        30.00 ms-pay-to-paid	  566156 B/op	    7302 allocs/op
PASS
`

var testEnv = Env{Commands: []string{"go test -bench . ./cmd/pixgate/"}, Date: "2026-01-02 03:04 UTC",
	CPUModel: "Test CPU", Cores: 2, GoVersion: "go1.26", Postgres: "15.20, synchronous_commit=on", Redis: "7.0.15"}

func TestParseMedians(t *testing.T) {
	res, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Benches) != 11 || res.CPU != "Test CPU @ 2.00GHz" {
		t.Fatalf("parsed %d benchmarks, cpu %q", len(res.Benches), res.CPU)
	}
	b := res.get("BenchmarkRawHTTP")
	if b.Procs != 2 || len(b.Runs) != 2 {
		t.Fatalf("RawHTTP = %+v", b)
	}
	if st := b.Stat("ns/op"); st.Median != 30000 || st.Min != 25000 || st.Max != 35000 || st.N != 2 {
		t.Fatalf("RawHTTP ns/op = %+v, want median 30000 of 25000–35000", st)
	}
	p := res.get("BenchmarkChargePaidPipeline")
	if st := p.Stat(pipelineMetric); st.Median != 24 || st.Min != 20 || st.Max != 30 || st.N != 3 {
		t.Fatalf("pipeline %s = %+v, want median 24", pipelineMetric, st)
	}
	if p.Iters[0] != 30 {
		t.Fatalf("pipeline iterations = %v", p.Iters)
	}
}

func TestRender(t *testing.T) {
	res, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Render(&out, res, testEnv); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for _, want := range []string{
		"Numbers from a shared, noisy 2-core machine are indicative",
		"go test -bench . ./cmd/pixgate/",
		`Test CPU (Go reports "Test CPU @ 2.00GHz"), 2 cores (GOMAXPROCS 2); go1.26; Postgres 15.20, synchronous_commit=on; Redis 7.0.15`,
		// Raw Postgres: median 300 µs, 3,333 commits/s.
		"| `RawPostgresCommit` | `BEGIN`; one-row `INSERT`; `COMMIT` (pgx pool) | 300 µs | 250 µs – 350 µs | 3,333 ops/s |",
		// A reservation: 2 ms against 300 µs is 15% of the rate, 6.67 raw commits.
		"| `ReserveWithdrawal` | `RawPostgresCommit` | 0.15× | 6.67× |",
		"| `APIGetBalance` | `RawHTTP` | 0.075× | 13.3× |",
		"| `MoneyParse` | `RawParseFloat` | 0.2× | 5.00× |",
		"median **24.0 ms** (runs 20.0 – 30.0 ms,\neach the mean of 30 charges)",
		"reaches 15% of that rate (500 reservations/s)",
		"falls to 50% of the 64-wallet rate (250/s)",
		"| `ChargePaidPipeline` | 3 | 26,000,000 | 7.7% | 566,156 | 7,302 | 24.0 ms-pay-to-paid |",
		"| `RawParseFloat` | `strconv.ParseFloat(\"1234.56\")` | 20.0 ns | 20.0 ns – 20.0 ns | — |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for _, never := range []string{"NaN", "Inf", "%!"} {
		if strings.Contains(md, never) {
			t.Errorf("report contains %q:\n%s", never, md)
		}
	}
}

func TestRenderNeedsEveryBenchmark(t *testing.T) {
	partial := strings.ReplaceAll(sample, "BenchmarkRawHTTP-2", "BenchmarkSomethingElse-2")
	res, err := Parse(strings.NewReader(partial))
	if err != nil {
		t.Fatal(err)
	}
	err = Render(&bytes.Buffer{}, res, testEnv)
	if err == nil || !strings.Contains(err.Error(), "BenchmarkRawHTTP") {
		t.Fatalf("Render without RawHTTP = %v, want an error naming it", err)
	}
}

func TestParseRefusesFailures(t *testing.T) {
	for _, bad := range []string{
		sample + "--- FAIL: BenchmarkRawHTTP-2\n",
		sample + "FAIL\tgithub.com/pixgate/pixgate/cmd/pixgate\t1.0s\n",
		"PASS\n",
	} {
		if _, err := Parse(strings.NewReader(bad)); err == nil {
			t.Errorf("Parse accepted %q", bad[max(0, len(bad)-60):])
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{dur(21.5), "21.5 ns"}, {dur(119.2), "119 ns"}, {dur(26559), "26.6 µs"}, {dur(3804236), "3.80 ms"},
		{dur(2.5e9), "2.50 s"}, {count(1234567.4), "1,234,567"}, {count(999), "999"}, {pct(0.5), "50%"},
		{pct(0.012), "1.2%"}, {ratio(0.0751), "0.0751×"}, {num(0), "0"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestRenderIncludesTheLoadSection(t *testing.T) {
	res, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv
	env.Load, env.LoadCommand = "| Operation | ops/s |\n|---|--:|\n| raw | 5,000 |\n", "go run ./cmd/pixgate-load"
	var out bytes.Buffer
	if err := Render(&out, res, env); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	load, raw := strings.Index(md, "## The deployed stack under load"), strings.Index(md, "## The machine's raw limits")
	if load < 0 || raw < load || !strings.Contains(md, "| raw | 5,000 |") || !strings.Contains(md, "(`go run ./cmd/pixgate-load`)") {
		t.Fatalf("the load section is missing or misplaced:\n%s", md)
	}
	if strings.Contains(func() string { var b bytes.Buffer; _ = Render(&b, res, testEnv); return b.String() }(), "under load") {
		t.Fatal("a report without load results has a load section")
	}
}
