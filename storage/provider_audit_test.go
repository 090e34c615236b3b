package storage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The provider audit's reads: the transfers of every kind that statement
// lines name, by PixGate's id, by end-to-end id, or by the provider's own
// id at that provider alone, each once; what reconciliation booked of a
// record's amount; and the transfers completed over a span, of every
// kind, and no other.
func TestProviderAuditReads(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := newIntegrator(t, db)
	addProvider(t, db, "a")
	addProvider(t, db, "b")
	if _, err := db.CreditWallet(ctx, in.ID, 100000, "seed"); err != nil {
		t.Fatal(err)
	}
	withdraw := func(ref, provider string) storage.Transfer {
		t.Helper()
		nw := newWithdrawal(in.ID, 2500, 50, ref)
		nw.Provider = provider
		w, _, err := db.CreateWithdrawal(ctx, nw)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	complete := func(kind storage.TransferKind, id uuid.UUID, pix, e2e string) {
		t.Helper()
		if err := db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, kind, id, storage.Settlement{PixID: pix, EndToEndID: e2e, At: time.Now()})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	w1, w2, w3 := withdraw("w1", "a"), withdraw("w2", "b"), withdraw("w3", "a")
	complete(storage.KindWithdrawal, w1.ID, "pw1", "E1")
	if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, w2.ID, "pw2", ""); err != nil {
		t.Fatal(err)
	}
	c := markPaid(t, db, newCharge(t, db, in, 10000).ID, time.Now())
	r := createRefunds(t, db, in, c, 1000)[0]
	complete(storage.KindRefund, r, "pr", "D1")
	var med uuid.UUID
	if err := db.Pool().QueryRow(ctx, `WITH i AS (
			INSERT INTO infractions (id, integrator_id, charge_id, provider_id, amount, blocked_amount, status, closed_at)
			VALUES (gen_random_uuid(), $1, $2, 'inf-1', 100, 100, 'AGREED', now()) RETURNING id)
		INSERT INTO med_returns (id, integrator_id, charge_id, infraction_id, amount, covered, status, pix_id, provider, finished_at)
		SELECT gen_random_uuid(), $1, $2, id, 100, 100, 'COMPLETED', 'ret-1', 'a', now() FROM i RETURNING id`, in.ID, c.ID).Scan(&med); err != nil {
		t.Fatal(err)
	}
	end := time.Now()

	named := func(provider string, ids []uuid.UUID, e2es, pixIDs []string) (got []string) {
		t.Helper()
		list, err := db.TransfersByStatementRefs(ctx, provider, ids, e2es, pixIDs)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range list {
			got = append(got, string(x.Kind)+" "+x.ID.String()+" "+x.Provider+" "+string(x.Status)+" "+x.Amount.String())
		}
		slices.Sort(got)
		return got
	}
	want := func(s ...string) []string { slices.Sort(s); return s }
	line := func(kind storage.TransferKind, id uuid.UUID, provider, status, amount string) string {
		return string(kind) + " " + id.String() + " " + provider + " " + status + " " + amount
	}
	for _, tc := range []struct {
		name        string
		provider    string
		ids         []uuid.UUID
		e2es, pixes []string
		want        []string
	}{
		{"by PixGate's id, at any provider", "b", []uuid.UUID{w1.ID, w3.ID, uuid.Must(uuid.NewV7())}, nil, nil,
			want(line(storage.KindWithdrawal, w1.ID, "a", "COMPLETED", "25.00"), line(storage.KindWithdrawal, w3.ID, "a", "PROCESSING", "25.00"))},
		{"by end-to-end id", "b", nil, []string{"D1", "E404"}, nil, want(line(storage.KindRefund, r, "default", "COMPLETED", "10.00"))},
		{"by the provider's own id, at that provider", "a", nil, nil, []string{"ret-1", "pw2", "pw1"},
			want(line(storage.KindMedReturn, med, "a", "COMPLETED", "1.00"), line(storage.KindWithdrawal, w1.ID, "a", "COMPLETED", "25.00"))},
		{"by the provider's own id, of another provider's", "b", nil, nil, []string{"pw2", "pw1"},
			want(line(storage.KindWithdrawal, w2.ID, "b", "PROCESSING", "25.00"))},
		{"once, however many of its ids the lines give", "a", []uuid.UUID{w1.ID}, []string{"E1"}, []string{"pw1"},
			want(line(storage.KindWithdrawal, w1.ID, "a", "COMPLETED", "25.00"))},
		{"nothing for nothing", "a", nil, nil, nil, nil},
	} {
		if got := named(tc.provider, tc.ids, tc.e2es, tc.pixes); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}

	// What resolutions of reconciliation exceptions of a record's amount
	// booked, and nothing else.
	if _, err := db.Pool().Exec(ctx, `WITH run AS (
			INSERT INTO reconciliation_runs (provider, day, trigger, status, started_at, grace_until)
			VALUES ('a', current_date, 'operator', 'done', now(), now()) RETURNING id)
		INSERT INTO reconciliation_items (id, provider, day, item_key, run_id, kind, status, record_id, delta, adjusted, resolved_at)
		SELECT gen_random_uuid(), 'a', current_date, k, run.id, kind, 'resolved', rec, d, d, now()
		FROM run, (VALUES ('k1', 'amount_mismatch', $1::uuid, -5), ('k2', 'duplicate_at_provider', $1::uuid, -2500),
			('k3', 'amount_mismatch', $2::uuid, 0)) v (k, kind, rec, d)`, w1.ID, r); err != nil {
		t.Fatal(err)
	}
	adjusted, err := db.AmountAdjustments(ctx, []uuid.UUID{w1.ID, r, w3.ID})
	if err != nil || len(adjusted) != 1 || adjusted[w1.ID] != -5 {
		t.Errorf("amount adjustments %v, %v; want w1's -0.05 alone", adjusted, err)
	}

	completed := func(from, to time.Time) (got []uuid.UUID) {
		t.Helper()
		if err := db.EachTransferCompleted(ctx, from, to, func(x storage.Transfer) error {
			got = append(got, x.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(got, func(x, y uuid.UUID) int { return slices.Compare(x[:], y[:]) })
		return got
	}
	all := []uuid.UUID{w1.ID, r, med}
	slices.SortFunc(all, func(x, y uuid.UUID) int { return slices.Compare(x[:], y[:]) })
	if got := completed(start, end.Add(time.Second)); !slices.Equal(got, all) {
		t.Errorf("completed over the test: %v, want %v (withdrawal, refund, MED return)", got, all)
	}
	if got := completed(start.Add(-time.Hour), start); len(got) != 0 {
		t.Errorf("completed before the test: %v", got)
	}
}
