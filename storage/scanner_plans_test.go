package storage_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// TestGuardedUpdatesReadOneRecordWhateverTheStatistics: a guarded update
// names one record by id and guards its state (WHERE id = $1 AND status =
// 'PROCESSING'). When a reconciler's partial index has that guard for its
// whole predicate (ON withdrawals (updated_at) WHERE status = 'PROCESSING')
// and the statistics were gathered at a quiet moment, nothing in flight,
// the index looks empty: Postgres reads it whole, the id a mere filter,
// instead of the primary key, and every send claim and settlement reads
// every record in flight (290 buffers instead of 4; migration 28). Here
// the statistics say nothing is in flight while thousands are, and every
// statement the by-id calls run on the in-flight tables must find its rows
// through an index condition, under custom and generic plans alike.
func TestGuardedUpdatesReadOneRecordWhateverTheStatistics(t *testing.T) {
	ctx := context.Background()
	url := storagetest.NewDatabaseURL(t)
	rec := &statementRecorder{}
	db, err := storage.Open(ctx, storage.Config{URL: url, MaxConns: 4, Tracer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range []string{"withdrawals", "refunds", "med_returns", "charges", "infractions"} {
		_, err := db.Pool().Exec(ctx, `ALTER TABLE `+table+` SET (autovacuum_enabled = false)`)
		must(err)
	}
	in, paid := paidCharge(t, db, money.FromReais(1000, 0))
	addProvider(t, db, "b")
	withdraw := func(ref string) storage.Transfer {
		t.Helper()
		w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 100, 10, ref))
		must(err)
		return w
	}
	settle := func(kind storage.TransferKind, id uuid.UUID, ok bool) {
		t.Helper()
		must(db.InTx(ctx, func(tx *storage.Tx) (err error) {
			if ok {
				_, _, err = tx.CompleteTransfer(ctx, kind, id, storage.Settlement{PixID: "pix-" + id.String(), At: time.Now()})
			} else {
				_, _, err = tx.FailTransfer(ctx, kind, id, storage.Failure{Reason: "refused"})
			}
			return err
		}))
	}
	// medReturns adds n MED returns (with their infractions, closed) of each
	// of charges, and returns one.
	medReturns := func(status string, n int, charges ...uuid.UUID) (id uuid.UUID) {
		t.Helper()
		must(db.Pool().QueryRow(ctx, `WITH i AS (
				INSERT INTO infractions (id, integrator_id, charge_id, provider_id, amount, blocked_amount, status, closed_at)
				SELECT gen_random_uuid(), $1, c, gen_random_uuid()::text, 100, 0, 'AGREED', now()
				FROM unnest($2::uuid[]) c, generate_series(1, $4) RETURNING id, charge_id), m AS (
				INSERT INTO med_returns (id, integrator_id, charge_id, infraction_id, amount, covered, status)
				SELECT gen_random_uuid(), $1, charge_id, id, 100, 100, $3 FROM i RETURNING id)
			SELECT min(id::text)::uuid FROM m`, in.ID, charges, status, n).Scan(&id))
		return id
	}

	// A quiet moment: every transfer finished, every charge paid, when the
	// statistics are gathered. Refunds and MED returns are of many charges.
	var paidIDs []uuid.UUID
	for i := range 20 {
		settle(storage.KindWithdrawal, withdraw(fmt.Sprint("quiet-", i)).ID, i%2 == 0)
		c := markPaid(t, db, newCharge(t, db, in, 1000).ID, time.Now())
		settle(storage.KindRefund, createRefunds(t, db, in, c, 100)[0], i%2 == 0)
		paidIDs = append(paidIDs, c.ID)
	}
	medReturns("COMPLETED", 1, paidIDs...)
	_, err = db.Pool().Exec(ctx, `ANALYZE withdrawals, refunds, med_returns, charges, infractions`)
	must(err)

	// Then a busy one the statistics do not know of: thousands in flight.
	w, w2 := withdraw("busy-1"), withdraw("busy-2")
	refunds := createRefunds(t, db, in, paid, 100, 100)
	medReturn := medReturns("PROCESSING", 3000, paid.ID)
	issued, expiring := newCharge(t, db, in, 1000), newCharge(t, db, in, 1000)
	copyRows(t, db, "withdrawals", w.ID, 3000, nil)
	copyRows(t, db, "refunds", refunds[0], 3000, nil)
	copyRows(t, db, "charges", issued.ID, 3000, map[string]string{"pix_id": "'bulk-' || g", "next_check_at": "now() + interval '1 minute'"})
	unissued := newCharge(t, db, in, 1000)
	copyRows(t, db, "charges", unissued.ID, 3000, map[string]string{"external_id": "'bulk-unissued-' || g"})
	held := payCharge(t, db, heldIntegrator(t, db, time.Hour), 1000, time.Now().Add(-2*time.Hour))
	copyRows(t, db, "charges", held.ID, 3000, map[string]string{"external_id": "'bulk-held-' || g", "pix_id": "'bulk-held-' || g"})
	var infraction uuid.UUID
	must(db.Pool().QueryRow(ctx, `INSERT INTO infractions (id, integrator_id, charge_id, provider_id, amount, blocked_amount, status)
		SELECT gen_random_uuid(), $1, $2, 'bulk-' || g, 100, 0, 'OPEN' FROM generate_series(1, 3000) g RETURNING id`, in.ID, paid.ID).Scan(&infraction))

	// The by-id calls of the send task, the reconciler and the settlements.
	rec.start()
	_, _, err = db.ClaimWithdrawalSend(ctx, w.ID)
	must(err)
	must(db.EndWithdrawalSend(ctx, w.ID))
	must(db.MoveWithdrawal(ctx, w.ID, storage.DefaultProvider, "b", 1))
	must(db.RedriveTransfer(ctx, storage.KindWithdrawal, w.ID, storage.OutboxMessage{Type: "withdrawal:send", ID: "redrive", Payload: []byte(`{}`)}))
	for kind, id := range map[storage.TransferKind]uuid.UUID{storage.KindWithdrawal: w.ID, storage.KindRefund: refunds[0], storage.KindMedReturn: medReturn} {
		must(db.RecordTransferSent(ctx, kind, id, "pix-"+id.String(), ""))
		must(db.TouchTransfer(ctx, kind, id))
		must(db.RecordResent(ctx, kind, id, "pix-"+id.String(), "again-"+id.String()))
		if flagged, err := db.FlagTransfer(ctx, kind, id, "lost"); err != nil || !flagged {
			t.Fatalf("FlagTransfer(%s) = %v, %v", kind, flagged, err)
		}
	}
	settle(storage.KindWithdrawal, w.ID, true)
	settle(storage.KindWithdrawal, w2.ID, false)
	settle(storage.KindRefund, refunds[0], true)
	settle(storage.KindRefund, refunds[1], false)
	_, err = db.IssueCharge(ctx, issued.ID, storage.ChargeIssue{PixID: "pix-issued", QRCode: "qr", ExpiresAt: time.Now().Add(time.Hour)})
	must(err)
	must(db.ScheduleChargeCheck(ctx, issued.ID, time.Now().Add(time.Minute)))
	markPaid(t, db, issued.ID, time.Now())
	must(db.InTx(ctx, func(tx *storage.Tx) error { _, _, err := tx.ExpireCharge(ctx, expiring.ID); return err }))
	_, err = db.FailChargeAt(ctx, unissued.ID, "provider down", "b")
	must(err)
	must(db.DeferRelease(ctx, held.ID, time.Second))
	if released, err := db.ReleaseCharge(ctx, held.ID); err != nil || released == 0 {
		t.Fatalf("ReleaseCharge = %v, %v", released, err)
	}
	must(db.TouchInfraction(ctx, infraction))

	// Not vacuous: the statements were seen, the pipelined claim among them.
	explained := explainStatements(t, url, rec.stop())
	for _, want := range []string{"sends = sends + 1", "flagged_at = now()", "held_amount = 0", "provider = coalesce(nullif($3::text", "infractions SET updated_at", "status = 'COMPLETED'", "status = 'FAILED'", "next_check_at = $2"} {
		if !strings.Contains(strings.Join(explained, "\n"), want) {
			t.Errorf("no statement with %q among the %d explained", want, len(explained))
		}
	}
	if len(explained) < 20 {
		t.Errorf("explained %d statements on the in-flight tables, want at least 20", len(explained))
	}
}

// copyRows inserts n copies of table's row id, with new ids and external
// ids ('bulk-' || g unless set says) and the columns in set computed as
// given (g counts from 1 to n).
func copyRows(t *testing.T, db *storage.DB, table string, id uuid.UUID, n int, set map[string]string) {
	t.Helper()
	ctx := context.Background()
	if set == nil {
		set = map[string]string{}
	}
	set["id"] = "gen_random_uuid()"
	if _, ok := set["external_id"]; !ok {
		set["external_id"] = "'bulk-' || g"
	}
	var cols, values string
	if err := db.Pool().QueryRow(ctx, `SELECT string_agg(column_name, ', ' ORDER BY ordinal_position),
			string_agg(coalesce($2::jsonb->>column_name, 'src.' || column_name), ', ' ORDER BY ordinal_position)
		FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, table, set).Scan(&cols, &values); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool().Exec(ctx, fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s FROM %[1]s src, generate_series(1, $2) g WHERE src.id = $1`,
		table, cols, values), id, n); err != nil {
		t.Fatalf("copy %s: %v", table, err)
	}
}

var inFlightTable = regexp.MustCompile(`\b(withdrawals|refunds|med_returns|charges|infractions)\b`)

// explainStatements explains each distinct statement naming an in-flight
// table, prepared, as executed with its recorded arguments (EXPLAIN runs
// nothing), under a custom and a generic plan; it fails the test on any
// read of such a table without an index condition, and returns the
// statements it explained.
func explainStatements(t *testing.T, url string, stmts []pgx.TraceQueryStartData) (explained []string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, st := range stmts {
		if !inFlightTable.MatchString(st.SQL) || slices.Contains(explained, st.SQL) {
			continue
		}
		explained = append(explained, st.SQL)
		name := fmt.Sprintf("plan_%d", len(explained))
		sd, err := conn.Prepare(ctx, name, st.SQL)
		if err != nil {
			t.Fatalf("prepare %s: %v", st.SQL, err)
		}
		literals := make([]string, len(st.Args))
		for i, arg := range st.Args {
			text, err := conn.TypeMap().Encode(sd.ParamOIDs[i], pgx.TextFormatCode, arg, nil)
			if err != nil {
				t.Fatalf("argument %d of %s: %v", i+1, st.SQL, err)
			}
			literals[i] = "NULL"
			if text != nil {
				literals[i] = "'" + strings.ReplaceAll(string(text), "'", "''") + "'"
			}
		}
		explain := `EXPLAIN (FORMAT JSON) EXECUTE ` + name
		if len(literals) > 0 {
			explain += "(" + strings.Join(literals, ", ") + ")"
		}
		for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
			var plan []struct{ Plan planNode }
			if _, err := conn.Exec(ctx, `SET plan_cache_mode = `+mode); err != nil {
				t.Fatal(err)
			}
			if err := conn.QueryRow(ctx, explain).Scan(&plan); err != nil || len(plan) != 1 {
				t.Fatalf("%s: %v", explain, err)
			}
			for _, bad := range plan[0].Plan.unindexedReads("") {
				raw, _ := json.Marshal(plan[0].Plan)
				t.Errorf("under %s, %s\nreads %s with no index condition (%s); plan: %s", mode, strings.Join(strings.Fields(st.SQL), " "), bad, explain, raw)
			}
		}
	}
	return explained
}

type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name,omitempty"`
	Index     string     `json:"Index Name,omitempty"`
	IndexCond string     `json:"Index Cond,omitempty"`
	Filter    string     `json:"Filter,omitempty"`
	Plans     []planNode `json:"Plans,omitempty"`
}

// unindexedReads lists the reads of an in-flight table in the plan that
// do not find their rows by an equality of an index: a sequential scan, an
// index read whole (every condition a filter), or a range of one (all the
// charges due, say). A node that names no table
// (a Bitmap Index Scan) reads its parent's (its Bitmap Heap Scan's).
func (n planNode) unindexedReads(parent string) (bad []string) {
	table := cmp.Or(n.Relation, parent)
	switch {
	case !inFlightTable.MatchString(table):
	case n.NodeType == "Seq Scan":
		bad = append(bad, fmt.Sprintf("%s (Seq Scan, filter %s)", table, n.Filter))
	case strings.Contains(n.NodeType, "Index") && n.IndexCond == "":
		bad = append(bad, fmt.Sprintf("%s through %s, whole (%s, filter %s)", table, n.Index, n.NodeType, n.Filter))
	case strings.Contains(n.NodeType, "Index") && !strings.Contains(n.IndexCond, " = "):
		bad = append(bad, fmt.Sprintf("%s through %s, a range (%s, %s, filter %s)", table, n.Index, n.NodeType, n.IndexCond, n.Filter))
	}
	for _, c := range n.Plans {
		bad = append(bad, c.unindexedReads(table)...)
	}
	return bad
}

// statementRecorder is a pgx tracer that records the statements run, those
// sent in a batch (a pipeline) too, between start and stop.
type statementRecorder struct {
	mu    sync.Mutex
	on    bool
	stmts []pgx.TraceQueryStartData
}

func (r *statementRecorder) start() { r.mu.Lock(); r.on = true; r.mu.Unlock() }

func (r *statementRecorder) stop() []pgx.TraceQueryStartData {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.stmts
}

func (r *statementRecorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.stmts = append(r.stmts, d)
	}
	return ctx
}

func (r *statementRecorder) TraceBatchQuery(ctx context.Context, c *pgx.Conn, d pgx.TraceBatchQueryData) {
	r.TraceQueryStart(ctx, c, pgx.TraceQueryStartData{SQL: d.SQL, Args: d.Args})
}

func (*statementRecorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (*statementRecorder) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
func (*statementRecorder) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
