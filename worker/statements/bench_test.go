package statements

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// benchLines is the size of the benchmark's day; PIXGATE_BENCH_RECON_LINES
// changes it (make bench runs the default).
func benchLines() int {
	if n, err := strconv.Atoi(os.Getenv("PIXGATE_BENCH_RECON_LINES")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// benchStatement is a provider's statement of n lines, made page by page
// as they are asked for (a provider's answers, not PixGate's memory): line
// i is charge i of the fixture, but for a few discrepancies: every 250,000th
// line shows one centavo more, line n/2 is left out, and a last line pays no
// charge of PixGate's.
type benchStatement struct {
	providerclient.Connector
	n     int
	start time.Time
	// total is what the lines move, the day's closing balance (opening 0).
	total money.Money
}

func newBenchStatement(n int, start time.Time) *benchStatement {
	s := &benchStatement{n: n, start: start}
	for i := 1; i <= n+1; i++ {
		if l, ok := s.line(i); ok {
			s.total += l.Amount
		}
	}
	return s
}

// changed is how many lines show another amount than their charge's.
func (s *benchStatement) changed() int {
	k := 0
	for i := 250_000; i <= s.n; i += 250_000 {
		if i != s.n/2 {
			k++
		}
	}
	return k
}

const benchPage = 1000

func (s *benchStatement) Name() string { return "bench" }
func (s *benchStatement) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Statement: true, StatementBalances: true}
}

func (s *benchStatement) Statement(_ context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	from, _ := strconv.Atoi(req.Cursor)
	p := &providerclient.StatementPage{Lines: make([]providerclient.StatementLine, 0, benchPage),
		Balances: &providerclient.DayBalances{Opening: 0, Closing: s.total}}
	for i := from + 1; i <= min(from+benchPage, s.n+1); i++ {
		if l, ok := s.line(i); ok {
			p.Lines = append(p.Lines, l)
		}
	}
	if from+benchPage <= s.n {
		p.Next = strconv.Itoa(from + benchPage)
	}
	return p, nil
}

func benchAmount(i int) money.Money { return money.Money(100 + i%10000) }

func (s *benchStatement) line(i int) (providerclient.StatementLine, bool) {
	if i == s.n/2 {
		return providerclient.StatementLine{}, false
	}
	l := providerclient.StatementLine{Kind: providerclient.KindCharge, Direction: providerclient.In, ProviderID: fmt.Sprintf("pix-%d", i),
		EndToEndID: fmt.Sprintf("E%031d", i), Amount: benchAmount(i), Status: providerclient.StatusPaid,
		SettledAt: s.start.Add(time.Duration(i) * 40 * time.Millisecond)}
	switch {
	case i > s.n:
		l.ProviderID, l.EndToEndID, l.Amount = "unknown", "E-unknown", 700
	case i%250_000 == 0 && i != s.n/2:
		l.Amount++
	}
	return l, true
}

// benchFixture is a day of n charges paid through the provider "bench", written
// straight into the database (what matters here is the matching, not how
// the charges got there).
func benchFixture(b *testing.B, db *storage.DB, day providerclient.Day, n int) {
	b.Helper()
	ctx := context.Background()
	in, _, err := db.CreateIntegrator(ctx, storage.NewIntegrator{Name: "Bench", Email: "bench@example.com",
		CashIn: money.Fixed(1), CashOut: money.Fixed(0)})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, `INSERT INTO charges (id, integrator_id, external_id, request_hash, amount, fee, status, pix_id,
			payer_name, payer_document, paid_at, end_to_end_id, available_at, released_at, provider)
		SELECT gen_random_uuid(), $1, 'bench-' || i, '\x00', 100 + i % 10000, 1, 'PAID', 'pix-' || i, 'F', '52998224725',
			$2::timestamptz + i * interval '40 milliseconds', 'E' || lpad(i::text, 31, '0'), $2::timestamptz, $2::timestamptz, 'bench'
		FROM generate_series(1, $3::int) i`, in.ID, day.Start().Add(6*time.Hour), n); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, `ANALYZE charges`); err != nil {
		b.Fatal(err)
	}
}

// rawScan is the floor of the same work: the same statement read and
// copied into a temporary table, and PixGate's records of the day read
// once, with no matching.
func rawScan(b *testing.B, db *storage.DB, conn providerclient.Connector, day providerclient.Day) time.Duration {
	b.Helper()
	ctx := context.Background()
	start := time.Now()
	err := pgx.BeginTxFunc(ctx, db.Pool(), pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE raw_lines (line_no bigint, kind text, dir smallint, provider_id text, ext_id text,
			rec_uuid uuid, e2e text, amount bigint, fee bigint, status text, settled_at timestamptz) ON COMMIT DROP`); err != nil {
			return err
		}
		src := newSource(ctx, conn, day)
		var n int64
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"raw_lines"}, []string{"line_no", "kind", "dir", "provider_id", "ext_id", "rec_uuid",
			"e2e", "amount", "fee", "status", "settled_at"}, pgx.CopyFromFunc(func() ([]any, error) {
			if !src.Next() {
				return nil, src.Err()
			}
			l := src.Line()
			n++
			return []any{n, l.Kind, int16(l.Direction), l.ProviderID, l.ExternalID, l.RecordID, l.EndToEndID, int64(l.Amount),
				int64(l.Fee), l.Status, l.SettledAt}, nil
		})); err != nil {
			return err
		}
		var count, sum int64
		return tx.QueryRow(ctx, `SELECT count(*), coalesce(sum(amount), 0) FROM charges
			WHERE paid_at >= $1 AND paid_at < $2 AND provider = 'bench'`,
			day.Start(), day.End()).Scan(&count, &sum)
	})
	if err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// peakRSS is the process's peak resident memory (VmHWM), in MB.
func peakRSS(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// BenchmarkReconcileDay reconciles a provider's day of a million
// transactions (PIXGATE_BENCH_RECON_LINES) end to end: the statement read
// page by page, streamed into Postgres and matched there, the day's items
// and figures written. It reports the lines reconciled per second against
// a raw scan of the same rows (lines/s ÷ raw-lines/s, ×raw), and the
// process's peak memory, which a statement of any size leaves bounded (one
// page of 1000 lines at a time). Run it alone: the peak is the process's.
func BenchmarkReconcileDay(b *testing.B) {
	n := benchLines()
	db := storagetest.NewDB(b)
	day := providerclient.DayOf(time.Now()).AddDays(-2)
	benchFixture(b, db, day, n)
	conn := newBenchStatement(n, day.Start().Add(6*time.Hour))
	r := New(Config{}, db, func() []providerclient.Connector { return []providerclient.Connector{conn} },
		slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	raw := rawScan(b, db, conn, day)
	b.ResetTimer()
	var run storage.ReconRun
	for b.Loop() {
		var err error
		if run, err = r.Run(context.Background(), "bench", day, storage.TriggerOperator); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	changed := int64(conn.changed())
	if run.Lines != int64(n) || run.Matched != int64(n-1)-changed || run.Exceptions != changed+2 || *run.Unexplained != 0 {
		b.Fatalf("run %+v", run)
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/perOp, "lines/s")
	b.ReportMetric(float64(n)/raw.Seconds(), "raw-lines/s")
	b.ReportMetric(raw.Seconds()/perOp, "×raw")
	b.ReportMetric(peakRSS(b), "peak-RSS-MB")
	b.ReportMetric(float64(n), "lines")
	b.ReportMetric(loadAverage(b), "loadavg-1m")
}

// loadAverage is the machine's load average over the last minute.
func loadAverage(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(raw))
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}
