package provideraudit

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// The window of every test: 2026-03-08 to 2026-03-10, at noon of the last.
var (
	since = providerclient.Day{Year: 2026, Month: time.March, Day: 8}
	until = providerclient.Day{Year: 2026, Month: time.March, Day: 10}
	now   = until.Start().Add(12 * time.Hour)
)

func at(day providerclient.Day, hour int) time.Time {
	return day.Start().Add(time.Duration(hour) * time.Hour)
}

var yesterday = providerclient.Day{Year: 2026, Month: time.March, Day: 9}

type record struct {
	kind     storage.TransferKind
	provider string
	amount   money.Money
	status   storage.TransferStatus
	finished time.Time // COMPLETED's
	pix, e2e string
	// adjusted is what reconciliation resolutions of its amount booked.
	adjusted money.Money
}

func (r record) transfer(id uuid.UUID) storage.Transfer {
	t := storage.Transfer{Kind: r.kind, ID: id, Provider: r.provider, Amount: r.amount, Status: r.status}
	if t.Kind == "" {
		t.Kind = storage.KindWithdrawal
	}
	if t.Status == "" {
		t.Status = storage.TransferCompleted
	}
	if t.Status == storage.TransferCompleted {
		f := r.finished
		if f.IsZero() {
			f = at(yesterday, 10)
		}
		t.FinishedAt = &f
	}
	if r.pix != "" {
		t.PixID = &r.pix
	}
	if r.e2e != "" {
		t.EndToEndID = &r.e2e
	}
	return t
}

// line is a statement line of provider that settled the record, by its
// id in the form form gives, for amount.
type line struct {
	provider   string
	day        providerclient.Day
	kind       providerclient.Kind
	amount     money.Money
	ext        func(uuid.UUID) string // PixGate's id as the contract echoes it; nil: none
	providerID string
	e2e        string
}

var (
	dashed = func(id uuid.UUID) string { return id.String() }
	hexed  = func(id uuid.UUID) string { return hex.EncodeToString(id[:]) } // efi's
)

// world is one case: a record (the first has id ids[0], ...), lines that
// name them, and the providers.
type world struct {
	records   []record
	lines     []line // each names records[0] unless of names another
	of        []int  // of[i] is the record lines[i] names
	providers map[string]*fakeBooks
	unbuilt   []string // providers whose connector cannot be built
	// float of each provider; a provider's balance is its float unless
	// balances says
	balances map[string][]money.Money
}

func (w world) run(t *testing.T, cfg Config) (Report, []uuid.UUID) {
	t.Helper()
	ids := make([]uuid.UUID, len(w.records))
	recs := &fakeRecords{floats: map[string]money.Money{"a": 1000, "b": 2000}, adjusted: map[uuid.UUID]money.Money{}}
	for i, r := range w.records {
		ids[i] = uuid.Must(uuid.NewV7())
		recs.transfers = append(recs.transfers, r.transfer(ids[i]))
		if r.adjusted != 0 {
			recs.adjusted[ids[i]] = r.adjusted
		}
	}
	books := map[string]*fakeBooks{"a": {}, "b": {}}
	for name, b := range w.providers {
		books[name] = b
	}
	for name, b := range books {
		if b.days == nil {
			b.days = map[string][]providerclient.StatementLine{}
		}
		b.balances = []money.Money{recs.floats[name]}
		if v, ok := w.balances[name]; ok {
			b.balances = v
		}
	}
	for i, l := range w.lines {
		rec := 0
		if i < len(w.of) {
			rec = w.of[i]
		}
		kind, day := l.kind, l.day
		if kind == "" {
			kind = providerclient.KindPayout
		}
		if day.IsZero() {
			day = yesterday
		}
		sl := providerclient.StatementLine{Kind: kind, Direction: providerclient.DirectionOf(kind), ProviderID: l.providerID,
			EndToEndID: l.e2e, Amount: l.amount, Status: providerclient.StatusCompleted, SettledAt: at(day, 9)}
		if l.ext != nil {
			sl.ExternalID = l.ext(ids[rec])
		}
		b := books[l.provider]
		b.days[day.String()] = append(b.days[day.String()], sl)
	}
	var providers []Provider
	for _, name := range []string{"a", "b"} {
		if slices.Contains(w.unbuilt, name) {
			providers = append(providers, Provider{Name: name, Err: errors.New("client secret: PROVIDER_B_SECRET is not set")})
			continue
		}
		providers = append(providers, Provider{Name: name, Books: books[name]})
	}
	if cfg.Since.IsZero() {
		cfg.Since, cfg.Until = since, until
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return now }
	}
	r, err := Run(context.Background(), cfg, recs, providers)
	if err != nil {
		t.Fatal(err)
	}
	return r, ids
}

// found is each finding as "check provider" (and "#i" of the record it
// names).
func found(r Report, ids []uuid.UUID) []string {
	var out []string
	for _, f := range r.Findings {
		s := f.Check + " " + f.Provider
		if f.ID != nil {
			s += fmt.Sprintf(" #%d", slices.Index(ids, *f.ID))
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Each finding the audit makes, made by the mistake it names and by
// nothing else; each case fails if its check is taken away, and the clean
// ones if a check reports what is not a mistake.
func TestProviderAuditFindings(t *testing.T) {
	w := func(r ...record) []record { return r }
	tests := []struct {
		name string
		w    world
		cfg  Config
		want []string
	}{
		{name: "clean: a withdrawal settled once, where PixGate records it, for its amount",
			w: world{records: w(record{provider: "a", amount: 500}), lines: []line{{provider: "a", amount: 500, ext: dashed}}}},
		{name: "clean: efi echoes PixGate's id without its hyphens",
			w: world{records: w(record{provider: "b", amount: 500}), lines: []line{{provider: "b", amount: 500, ext: hexed}}}},
		{name: "clean: a statement that names a transfer by its end-to-end id alone (woovi's)",
			w: world{records: w(record{provider: "a", amount: 500, e2e: "E123"}), lines: []line{{provider: "a", amount: 500, e2e: "E123"}}}},
		{name: "clean: a MED return the provider made and names by its own id",
			w: world{records: w(record{kind: storage.KindMedReturn, provider: "a", amount: 9850, pix: "ret-1"}),
				lines: []line{{provider: "a", kind: providerclient.KindMedReturn, amount: 9850, providerID: "ret-1"}}}},
		{name: "clean: a withdrawal settled at the provider that PixGate has not heard of yet",
			w: world{records: w(record{provider: "a", amount: 500, status: storage.TransferProcessing}), lines: []line{{provider: "a", amount: 500, ext: dashed}}}},
		{name: "clean: a charge paid in is not a transfer",
			w: world{records: w(record{provider: "a", amount: 500}),
				lines: []line{{provider: "a", amount: 500, ext: dashed}, {provider: "b", kind: providerclient.KindCharge, amount: 500, ext: dashed}}}},

		{name: "paid_twice: at two providers (the second one elsewhere too)",
			w: world{records: w(record{provider: "a", amount: 500}),
				lines: []line{{provider: "a", amount: 500, ext: dashed}, {provider: "b", amount: 500, ext: hexed}}},
			want: []string{"paid_elsewhere a #0", "paid_twice a #0"}},
		{name: "paid_twice: twice at one provider, on two days",
			w: world{records: w(record{provider: "a", amount: 500}),
				lines: []line{{provider: "a", amount: 500, ext: dashed}, {provider: "a", day: until, amount: 500, ext: dashed}}},
			want: []string{"paid_twice a #0"}},
		{name: "failed_but_paid: PixGate failed it, the provider settled it",
			w:    world{records: w(record{provider: "a", amount: 500, status: storage.TransferFailed}), lines: []line{{provider: "a", amount: 500, ext: dashed}}},
			want: []string{"failed_but_paid a #0"}},
		{name: "completed_but_unpaid: completed yesterday, in no statement",
			w:    world{records: w(record{provider: "a", amount: 500}, record{provider: "b", amount: 700, finished: at(since, 12)})},
			want: []string{"completed_but_unpaid a #0", "completed_but_unpaid b #1"}},
		{name: "completed_but_unpaid: not judged on a day not over (today)",
			w: world{records: w(record{provider: "a", amount: 500, finished: at(until, 9)})}},
		{name: "completed_but_unpaid: not judged near the window's first instant, whose line may be on the day before",
			w: world{records: w(record{provider: "a", amount: 500, finished: since.Start().Add(5 * time.Minute)})}},
		{name: "completed_but_unpaid: not judged before the window",
			w: world{records: w(record{provider: "a", amount: 500, finished: at(since.AddDays(-1), 12)})}},
		{name: "completed_but_unpaid: not judged near the end of a window that ends before today",
			w:   world{records: w(record{provider: "a", amount: 500, finished: yesterday.End().Add(-5 * time.Minute)})},
			cfg: Config{Since: since, Until: yesterday}},
		{name: "completed_but_unpaid: a line of the day after its completion settles it",
			w: world{records: w(record{provider: "a", amount: 500, finished: yesterday.End().Add(-time.Minute)}),
				lines: []line{{provider: "a", day: until, amount: 500, ext: dashed}}}},
		{name: "paid_elsewhere: PixGate records it at a (in flight), b settled it",
			w:    world{records: w(record{provider: "a", amount: 500, status: storage.TransferProcessing}), lines: []line{{provider: "b", amount: 500, ext: hexed}}},
			want: []string{"paid_elsewhere a #0"}},
		{name: "paid_elsewhere and failed_but_paid: PixGate failed it at a, b settled it",
			w:    world{records: w(record{provider: "a", amount: 500, status: storage.TransferFailed}), lines: []line{{provider: "b", amount: 500, ext: hexed}}},
			want: []string{"failed_but_paid a #0", "paid_elsewhere a #0"}},
		{name: "amount_mismatch: a withdrawal settled for another amount",
			w:    world{records: w(record{provider: "a", amount: 500}), lines: []line{{provider: "a", amount: 501, ext: dashed}}},
			want: []string{"amount_mismatch a #0"}},
		{name: "amount_mismatch: a MED return the provider paid for more than PixGate's moves",
			w: world{records: w(record{kind: storage.KindMedReturn, provider: "a", amount: 9850, pix: "ret-1"}),
				lines: []line{{provider: "a", kind: providerclient.KindMedReturn, amount: 10000, providerID: "ret-1"}}},
			want: []string{"amount_mismatch a #0"}},
		{name: "a provider's own id names a record at that provider alone",
			w: world{records: w(record{provider: "a", amount: 500, pix: "tx-1", status: storage.TransferProcessing}),
				lines: []line{{provider: "b", amount: 500, providerID: "tx-1"}}}},
		{name: "amount_mismatch: none once reconciliation booked what the MED return's provider paid beyond it",
			w: world{records: w(record{kind: storage.KindMedReturn, provider: "a", amount: 9850, pix: "ret-1", adjusted: -150}),
				lines: []line{{provider: "a", kind: providerclient.KindMedReturn, amount: 10000, providerID: "ret-1"}}}},
		{name: "amount_mismatch: what reconciliation booked of it, and no more",
			w: world{records: w(record{kind: storage.KindMedReturn, provider: "a", amount: 9850, pix: "ret-1", adjusted: -100}),
				lines: []line{{provider: "a", kind: providerclient.KindMedReturn, amount: 10000, providerID: "ret-1"}}},
			want: []string{"amount_mismatch a #0"}},
		{name: "a provider's own id names a record at that provider alone, even one another line of it named",
			w: world{records: w(record{provider: "a", amount: 500, pix: "tx-1", status: storage.TransferProcessing}),
				lines: []line{{provider: "b", amount: 500, ext: hexed}, {provider: "b", amount: 500, providerID: "tx-1"}}},
			want: []string{"paid_elsewhere a #0"}},
		{name: "a provider's own id names a record of the line's kind alone",
			w: world{records: w(record{provider: "a", amount: 500, pix: "tx-1", status: storage.TransferProcessing}),
				lines: []line{{provider: "a", kind: providerclient.KindRefund, amount: 500, providerID: "tx-1"}}}},

		{name: "float_balance_mismatch: a balance that never agrees with the float",
			w:    world{balances: map[string][]money.Money{"b": {2500}}},
			cfg:  Config{SettleWait: 30 * time.Millisecond},
			want: []string{"float_balance_mismatch b"}},
		{name: "float_balance_mismatch: money in flight that settles within the wait is none",
			w:   world{balances: map[string][]money.Money{"b": {2500, 2500, 2000}}},
			cfg: Config{SettleWait: time.Second}},
		{name: "float_balance_mismatch: the same difference, with no wait to settle",
			w:    world{balances: map[string][]money.Money{"b": {2500, 2500, 2000}}},
			want: []string{"float_balance_mismatch b"}},

		{name: "provider_unreadable: its balance",
			w:    world{providers: map[string]*fakeBooks{"b": {balanceErr: errors.New("503")}}},
			cfg:  Config{SettleWait: 20 * time.Millisecond},
			want: []string{"provider_unreadable b"}},
		{name: "provider_unreadable: no statement, so nothing is judged absent",
			w:    world{records: w(record{provider: "a", amount: 500}), providers: map[string]*fakeBooks{"b": {noStatement: true}}},
			want: []string{"provider_unreadable b"}},
		{name: "provider_unreadable: a statement that fails, so nothing is judged absent",
			w:    world{records: w(record{provider: "a", amount: 500}), providers: map[string]*fakeBooks{"b": {statementErr: errors.New("timeout")}}},
			want: []string{"provider_unreadable b"}},
		{name: "provider_unreadable: a connector not built; what the others show is still judged",
			w: world{records: w(record{provider: "a", amount: 500}, record{provider: "a", amount: 700, status: storage.TransferFailed}),
				lines: []line{{provider: "a", amount: 700, ext: dashed}}, of: []int{1}, unbuilt: []string{"b"}},
			want: []string{"failed_but_paid a #1", "provider_unreadable b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ids := tt.w.run(t, tt.cfg)
			if got := found(r, ids); !slices.Equal(got, tt.want) {
				for _, f := range r.Findings {
					t.Log(f)
				}
				t.Fatalf("findings %q, want %q", got, tt.want)
			}
			if len(tt.w.lines) > 0 && r.Lines == 0 {
				t.Errorf("no line read: %+v", r)
			}
		})
	}
}

// A finding names the record, its providers and the amounts: what PixGate
// moves and what each provider settled.
func TestProviderAuditFindingsNameRecordProvidersAndAmounts(t *testing.T) {
	r, ids := world{records: []record{{provider: "a", amount: 500}},
		lines:    []line{{provider: "a", amount: 500, ext: dashed}, {provider: "b", amount: 550, ext: hexed, providerID: "b-77"}},
		balances: map[string][]money.Money{"b": {1450}}}.run(t, Config{})
	var twice, float *Finding
	for i, f := range r.Findings {
		switch f.Check {
		case PaidTwice:
			twice = &r.Findings[i]
		case FloatBalanceMismatch:
			float = &r.Findings[i]
		}
	}
	if twice == nil || *twice.ID != ids[0] || twice.Kind != storage.KindWithdrawal || *twice.Amount != 500 || len(twice.Paid) != 2 ||
		twice.Paid[1].Provider != "b" || twice.Paid[1].Amount != 550 {
		t.Fatalf("paid_twice finding %+v", twice)
	}
	for _, want := range []string{ids[0].String(), "5.00 at a", "5.50 at b", "its id b-77"} {
		if !strings.Contains(twice.Detail, want) {
			t.Errorf("paid_twice says %q, not %q", twice.Detail, want)
		}
	}
	if float == nil || float.Provider != "b" || *float.Float != 2000 || *float.Balance != 1450 || *float.Difference != -550 {
		t.Fatalf("float finding %+v", float)
	}
	if r.Lines != 2 || r.Matched != 2 || !r.AbsenceJudged || r.Completed != 1 {
		t.Fatalf("report %+v", r)
	}
}

// Lines are matched in batches, one lookup each, and a record's lines in
// two batches are still one record's: a statement of 1201 lines, the
// first and the last settling the same withdrawal.
func TestProviderAuditMatchesLinesInBatches(t *testing.T) {
	w := world{}
	for i := range 1200 {
		w.records = append(w.records, record{provider: "a", amount: money.Money(100 + i)})
		w.lines = append(w.lines, line{provider: "a", amount: money.Money(100 + i), ext: dashed})
		w.of = append(w.of, i)
	}
	w.lines = append(w.lines, line{provider: "a", amount: 100, ext: hexed})
	w.of = append(w.of, 0)
	r, ids := w.run(t, Config{})
	if got := found(r, ids); !slices.Equal(got, []string{"paid_twice a #0"}) || r.Lines != 1201 || r.Matched != 1201 || r.Completed != 1200 {
		t.Fatalf("findings %q, report lines %d matched %d completed %d", got, r.Lines, r.Matched, r.Completed)
	}
}
