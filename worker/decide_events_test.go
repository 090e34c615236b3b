package worker

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// A notification is believed only as far as the provider confirms it, and
// a copy of one already confirmed and applied changes nothing more.
func TestProviderEventDecides(t *testing.T) {
	sent := "prov-1"
	tests := []struct {
		name          string
		claim         string // the status the notification claims
		processed     bool   // the event was handled before
		provider      *family.Transaction
		wantOutcome   string // "" when the event is left as it was
		wantConfirmed bool
		wantStatus    storage.TransferStatus
		wantConsulted int
	}{
		{name: "confirmed", claim: "COMPLETED",
			provider:    &family.Transaction{TransactionType: contract.TypePayment, Status: contract.StatusCompleted},
			wantOutcome: "applied: withdrawal completed", wantConfirmed: true, wantStatus: "COMPLETED", wantConsulted: 1},
		{name: "early claim: the provider still says PROCESSING", claim: "COMPLETED",
			provider:    &family.Transaction{TransactionType: contract.TypePayment, Status: "PROCESSING"},
			wantOutcome: "no change: withdrawal is PROCESSING at the provider", wantStatus: "PROCESSING", wantConsulted: 1},
		{name: "forged claim: the provider says otherwise", claim: "COMPLETED",
			provider:    &family.Transaction{TransactionType: contract.TypePayment, Status: contract.StatusFailed},
			wantOutcome: "applied: withdrawal failed", wantStatus: "FAILED", wantConsulted: 1},
		{name: "unknown to the provider", claim: "COMPLETED",
			wantOutcome: "ignored: unknown to the provider", wantStatus: "PROCESSING", wantConsulted: 1},
		{name: "redelivered after it was handled", claim: "COMPLETED", processed: true,
			provider:   &family.Transaction{TransactionType: contract.TypePayment, Status: contract.StatusCompleted},
			wantStatus: "PROCESSING"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			tr := newTransfer(storage.KindWithdrawal, &sent)
			st.transfers[tr.ID] = tr
			ev := storage.ProviderEvent{ID: 1, TransactionType: string(providerclient.KindPayout), TransactionID: sent, Status: tt.claim}
			if tt.processed {
				ev.ProcessedAt = ptr(time.Now())
			}
			st.events[1] = ev
			p := &fakeProvider{txns: map[string]*family.Transaction{}}
			if tt.provider != nil {
				txn := *tt.provider
				txn.ExternalID = tr.ID.String()
				p.txns[sent] = &txn
			}
			w, _ := fakeWorker(st, p)
			task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: 1}, 0).Task()
			if err := w.applyProviderEvent(context.Background(), task); err != nil {
				t.Fatal(err)
			}
			got := st.events[1]
			if tt.wantOutcome != "" && (got.Outcome == nil || *got.Outcome != tt.wantOutcome || got.Confirmed != tt.wantConfirmed) {
				t.Errorf("event outcome %v confirmed %v; want %q confirmed %v", got.Outcome, got.Confirmed, tt.wantOutcome, tt.wantConfirmed)
			}
			if st.transfers[tr.ID].Status != tt.wantStatus || p.consulted != tt.wantConsulted {
				t.Errorf("withdrawal %s after %d consults; want %s after %d", st.transfers[tr.ID].Status, p.consulted, tt.wantStatus, tt.wantConsulted)
			}
		})
	}

	// Two copies of one claim: the first applies it, the second finds it
	// applied; one posting and one postback in all, both events confirmed.
	st := newFakeStore()
	tr := newTransfer(storage.KindWithdrawal, &sent)
	st.transfers[tr.ID] = tr
	p := &fakeProvider{txns: map[string]*family.Transaction{
		sent: {TransactionType: contract.TypePayment, ExternalID: tr.ID.String(), Status: contract.StatusCompleted}}}
	w, _ := fakeWorker(st, p)
	for id := int64(1); id <= 2; id++ {
		st.events[id] = storage.ProviderEvent{ID: id, TransactionType: string(providerclient.KindPayout), TransactionID: sent, Status: "COMPLETED"}
		task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: id}, 0).Task()
		if err := w.applyProviderEvent(context.Background(), task); err != nil {
			t.Fatal(err)
		}
	}
	if first, second := st.events[1], st.events[2]; *first.Outcome != "applied: withdrawal completed" ||
		*second.Outcome != "already applied: withdrawal completed" || !first.Confirmed || !second.Confirmed {
		t.Errorf("outcomes %q (%v), %q (%v)", *first.Outcome, first.Confirmed, *second.Outcome, second.Confirmed)
	}
	if len(st.postings) != 1 || len(st.postbacks) != 1 {
		t.Errorf("%d postings and %d postbacks, want one of each", len(st.postings), len(st.postbacks))
	}
	// An event that does not exist is not worth retrying.
	task, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: 99}, 0).Task()
	if err := w.applyProviderEvent(context.Background(), task); !errors.Is(err, asynq.SkipRetry) {
		t.Errorf("missing event: %v, want SkipRetry", err)
	}
}

// An operator settles or fails only a flagged PROCESSING transfer (or any,
// forced), with the same transition a provider's answer makes and the
// audit record in the same transaction.
func TestResolveTransferDecides(t *testing.T) {
	sent := ptr("prov-1")
	tests := []struct {
		name       string
		flagged    bool
		status     storage.TransferStatus
		r          Resolution
		wantErr    error
		wantStatus storage.TransferStatus
		wantAction string
	}{
		{name: "settle a flagged refund", flagged: true, r: Resolution{Settle: true, Reason: "paid per statement", Operator: "alice"},
			wantStatus: "COMPLETED", wantAction: "refund.settle"},
		{name: "fail a flagged refund", flagged: true, r: Resolution{Reason: "never paid", Operator: "alice"},
			wantStatus: "FAILED", wantAction: "refund.fail"},
		{name: "not flagged", r: Resolution{Settle: true, Reason: "x", Operator: "alice"},
			wantErr: ErrNotFlagged, wantStatus: "PROCESSING"},
		{name: "not flagged, forced", r: Resolution{Settle: true, Reason: "x", Operator: "alice", Force: true},
			wantStatus: "COMPLETED", wantAction: "refund.settle"},
		{name: "already final", flagged: true, status: storage.TransferFailed, r: Resolution{Settle: true, Reason: "x", Operator: "alice"},
			wantErr: ErrNotProcessing, wantStatus: "FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			tr := newTransfer(storage.KindRefund, sent)
			if tt.status != "" {
				tr.Status = tt.status
			}
			st.transfers[tr.ID] = tr
			if tt.flagged {
				st.recovery[tr.ID] = storage.Recovery{FlaggedAt: ptr(time.Now())}
			}
			r := tt.r
			r.ID = tr.ID
			done, err := resolveTransfer(context.Background(), st, r)
			if !errors.Is(err, tt.wantErr) || tt.wantErr == nil && err != nil {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if st.transfers[tr.ID].Status != tt.wantStatus {
				t.Errorf("status %s, want %s", st.transfers[tr.ID].Status, tt.wantStatus)
			}
			if tt.wantAction == "" {
				if len(st.actions) > 0 || len(st.postings) > 0 {
					t.Errorf("refused resolution wrote %v, %v", st.actions, st.postings)
				}
				return
			}
			want := storage.TransferPosting(storage.KindRefund, tr.ID, tt.r.Settle)
			if done.Status != tt.wantStatus || len(st.actions) != 1 || st.actions[0].Action != tt.wantAction ||
				st.actions[0].LedgerReference != want || !slices.Equal(st.postings, []string{want}) {
				t.Errorf("resolved %+v, actions %+v, postings %v", done, st.actions, st.postings)
			}
		})
	}
}

// A notification's record is read once: the read that names it for the
// consult is the one its settlement uses, when the provider's answer names
// the same record by both ids; an answer naming another is looked up again.
// A task that repeats its event's claim has the record read with the
// event's pick (no read of its own); one that does not, or whose claim is
// not its event's, reads it apart.
func TestProviderEventReadsItsRecordOnce(t *testing.T) {
	sent := "prov-1"
	payout := string(providerclient.KindPayout)
	for _, tt := range []struct {
		name      string
		external  func(storage.Transfer) string
		claim     tasks.ProviderEvent
		wantReads int
	}{
		{"the answer names the record read", func(tr storage.Transfer) string { return tr.ID.String() },
			tasks.ProviderEvent{EventID: 1}, 1},
		{"the answer names another id", func(storage.Transfer) string { return "not-pixgates" },
			tasks.ProviderEvent{EventID: 1}, 2},
		{"the task repeats the claim", func(tr storage.Transfer) string { return tr.ID.String() },
			tasks.ProviderEvent{EventID: 1, TransactionType: payout, TransactionID: sent}, 0},
		{"the task repeats the claim, the answer names another id", func(storage.Transfer) string { return "not-pixgates" },
			tasks.ProviderEvent{EventID: 1, TransactionType: payout, TransactionID: sent}, 1},
		{"the task's claim is not its event's", func(tr storage.Transfer) string { return tr.ID.String() },
			tasks.ProviderEvent{EventID: 1, TransactionType: payout, TransactionID: "prov-other"}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			tr := newTransfer(storage.KindWithdrawal, &sent)
			st.transfers[tr.ID] = tr
			st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: payout, TransactionID: sent, Status: "COMPLETED"}
			p := &fakeProvider{txns: map[string]*family.Transaction{sent: {TransactionType: contract.TypePayment,
				Status: contract.StatusCompleted, ExternalID: tt.external(tr)}}}
			w, _ := fakeWorker(st, p)
			task, _ := tasks.ProviderEventMessage(tt.claim, 0).Task()
			if err := w.applyProviderEvent(context.Background(), task); err != nil {
				t.Fatal(err)
			}
			if st.transfers[tr.ID].Status != storage.TransferCompleted || len(st.postings) == 0 || st.reads != tt.wantReads {
				t.Fatalf("withdrawal %s, postings %v, %d reads; want COMPLETED, posted, %d reads",
					st.transfers[tr.ID].Status, st.postings, st.reads, tt.wantReads)
			}
		})
	}

	// A charge's notification, likewise.
	charge := string(providerclient.KindCharge)
	for _, claim := range []tasks.ProviderEvent{{EventID: 1}, {EventID: 1, TransactionType: charge, TransactionID: "charge-1"}} {
		st := newFakeStore()
		c := newPendingCharge("charge-1")
		st.charges[c.ID] = c
		st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: charge, TransactionID: "charge-1", Status: "PAID"}
		p := &fakeProvider{txns: map[string]*family.Transaction{"charge-1": {TransactionType: contract.TypeReceivePix,
			Status: contract.StatusPaid, ExternalID: c.ID.String(), Amount: 2500}}}
		w, _ := fakeWorker(st, p)
		task, _ := tasks.ProviderEventMessage(claim, 0).Task()
		if err := w.applyProviderEvent(context.Background(), task); err != nil {
			t.Fatal(err)
		}
		wantReads := 1
		if claim.TransactionID != "" {
			wantReads = 0
		}
		if st.charges[c.ID].Status != storage.ChargePaid || st.reads != wantReads {
			t.Fatalf("task %+v: charge %s after %d reads; want PAID after %d", claim, st.charges[c.ID].Status, st.reads, wantReads)
		}
	}
}

// A send to b whose answer was lost is PROCESSING with no provider id at
// PixGate. b's notification that it completed names it by PixGate's id (as
// efi's idEnvio and woovi's correlationID do): it is read back at b, the
// provider that sent it and that the withdrawal records, and applied at
// once, instead of being read at the default provider and ignored as
// unknown there (leaving it to the reconciler, minutes later).
func TestNotificationOfASendWhoseAnswerWasLost(t *testing.T) {
	st := newFakeStore()
	a := &fakeProvider{txns: map[string]*family.Transaction{}}
	b := &fakeProvider{txns: map[string]*family.Transaction{}}
	w := twoProviderWorker(t, st, a, b)
	tr := newTransfer(storage.KindWithdrawal, nil)
	tr.Provider = "b"
	st.transfers[tr.ID] = tr
	provID := "prov-" + tr.ID.String()
	b.txns[provID] = &family.Transaction{TransactionType: contract.TypePayment, ExternalID: tr.ID.String(), Status: contract.StatusCompleted}
	st.events[1] = storage.ProviderEvent{ID: 1, TransactionType: string(providerclient.KindPayout), TransactionID: provID,
		Status: "COMPLETED", Provider: "b", ExternalID: tr.ID.String()}
	task, _ := tasks.NewProviderEventMessage(tasks.ProviderEvent{EventID: 1, TransactionType: string(providerclient.KindPayout),
		TransactionID: provID}).Task()
	if err := w.applyProviderEvent(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	got := st.transfers[tr.ID]
	if got.Status != storage.TransferCompleted || got.PixID == nil || *got.PixID != provID {
		t.Fatalf("withdrawal %s, pix_id %v; want COMPLETED with b's id (event outcome %v)", got.Status, got.PixID, st.events[1].Outcome)
	}
	if a.consulted != 0 || b.consulted != 1 {
		t.Fatalf("read %d times at a, %d at b; want only at b", a.consulted, b.consulted)
	}
}
