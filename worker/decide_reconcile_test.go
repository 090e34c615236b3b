package worker

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// The reconciler's step for a stale transfer: a never-sent one is sent
// again through the outbox, a sent one is settled by what the provider
// says, re-sent when the provider lost it, flagged after MaxResends, and
// touched whenever nothing else changed it.
func TestReconcileStaleTransferDecides(t *testing.T) {
	const slot = 42
	sent := ptr("prov-1")
	tests := []struct {
		name        string
		kind        storage.TransferKind
		pixID       *string
		resends     int
		consult     map[string]*family.Transaction
		consultErr  error
		sendErr     error
		wantStatus  storage.TransferStatus
		wantPixID   string
		wantRedrive string // task id of the outbox message
		wantTouched bool
		wantFlagged bool
		wantReason  string
		wantResends int
	}{
		{name: "never sent: sent again", kind: storage.KindWithdrawal,
			wantStatus: "PROCESSING", wantRedrive: "withdrawal:send:%id:42", wantTouched: true},
		{name: "refund never sent", kind: storage.KindRefund,
			wantStatus: "PROCESSING", wantRedrive: "refund:send:%id:42", wantTouched: true},
		{name: "completed at the provider, notification lost", kind: storage.KindWithdrawal, pixID: sent,
			consult:    map[string]*family.Transaction{"prov-1": {TransactionType: contract.TypePayment, Status: contract.StatusCompleted}},
			wantStatus: "COMPLETED", wantPixID: "prov-1"},
		{name: "failed at the provider", kind: storage.KindRefund, pixID: sent,
			consult:    map[string]*family.Transaction{"prov-1": {TransactionType: contract.TypeRefund, Status: contract.StatusFailed, FailureReason: "devolvido"}},
			wantStatus: "FAILED", wantPixID: "prov-1", wantReason: "devolvido"},
		{name: "still in flight: touched", kind: storage.KindWithdrawal, pixID: sent,
			consult:    map[string]*family.Transaction{"prov-1": {TransactionType: contract.TypePayment, Status: "PROCESSING"}},
			wantStatus: "PROCESSING", wantPixID: "prov-1", wantTouched: true},
		{name: "provider unreachable: touched", kind: storage.KindWithdrawal, pixID: sent,
			consultErr: &providerclient.Error{Op: "consult transaction", Kind: providerclient.ErrUnavailable},
			wantStatus: "PROCESSING", wantPixID: "prov-1", wantTouched: true},
		{name: "lost by the provider: sent again", kind: storage.KindWithdrawal, pixID: sent,
			wantStatus: "PROCESSING", wantPixID: "prov-%id", wantResends: 1},
		{name: "lost again and again: flagged", kind: storage.KindRefund, pixID: sent, resends: 3,
			wantStatus: "PROCESSING", wantPixID: "prov-1", wantFlagged: true, wantResends: 3},
		{name: "lost, and rejected when sent again", kind: storage.KindWithdrawal, pixID: sent, sendErr: refusedAbsent("saldo insuficiente"),
			wantStatus: "FAILED", wantPixID: "prov-1", wantReason: "provider rejected the withdrawal when it was sent again: saldo insuficiente"},
		{name: "lost, and refused without proof when sent again: touched, never failed", kind: storage.KindWithdrawal, pixID: sent,
			sendErr: rejected("id_envio_duplicado"), wantStatus: "PROCESSING", wantPixID: "prov-1", wantTouched: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			p := &fakeProvider{txns: tt.consult, consultErr: tt.consultErr, sendErr: tt.sendErr}
			tr := newTransfer(tt.kind, tt.pixID)
			st.transfers[tr.ID] = tr
			st.recovery[tr.ID] = storage.Recovery{Resends: tt.resends}
			w, _ := fakeWorker(st, p)
			if err := w.reconcileTransfers(context.Background(), tt.kind, slot); err != nil {
				t.Fatal(err)
			}
			got, rc := st.transfers[tr.ID], st.recovery[tr.ID]
			pixID := ""
			if got.PixID != nil {
				pixID = *got.PixID
			}
			if got.Status != tt.wantStatus || pixID != strings.ReplaceAll(tt.wantPixID, "%id", tr.ID.String()) {
				t.Errorf("status %s, pix_id %q; want %s, %q", got.Status, pixID, tt.wantStatus, tt.wantPixID)
			}
			var redriven []string
			for _, m := range st.outbox {
				redriven = append(redriven, m.ID)
			}
			if want := strings.ReplaceAll(tt.wantRedrive, "%id", tr.ID.String()); want != "" && !slices.Equal(redriven, []string{want}) ||
				want == "" && len(redriven) > 0 {
				t.Errorf("re-driven %v, want %q", redriven, want)
			}
			if touched := st.touched[tr.ID] > 0; touched != tt.wantTouched {
				t.Errorf("touched %v, want %v", touched, tt.wantTouched)
			}
			if flagged := rc.FlaggedAt != nil; flagged != tt.wantFlagged || rc.Resends != tt.wantResends {
				t.Errorf("flagged %v after %d re-sends; want %v after %d", flagged, rc.Resends, tt.wantFlagged, tt.wantResends)
			}
			if tt.wantReason != "" && (got.FailureReason == nil || *got.FailureReason != tt.wantReason) {
				t.Errorf("failure_reason %v, want %q", got.FailureReason, tt.wantReason)
			}
		})
	}
}

// A notification that never came: the reconciler's check of a pending
// charge credits what the provider says was paid, expires what is past
// its expiry and unknown, and otherwise schedules the next check; a
// stored notification whose task was lost is queued again.
func TestLostNotificationDecides(t *testing.T) {
	past := time.Now().Add(-time.Hour)
	tests := []struct {
		name          string
		expiresAt     *time.Time
		consult       map[string]*family.Transaction
		wantStatus    storage.ChargeStatus
		wantScheduled bool
	}{
		{name: "paid: credited", consult: map[string]*family.Transaction{
			"qr-1": {TransactionType: contract.TypeReceivePix, Status: contract.StatusPaid, Amount: 2500}},
			wantStatus: "PAID"},
		{name: "not paid yet: checked again", consult: map[string]*family.Transaction{
			"qr-1": {TransactionType: contract.TypeReceivePix, Status: contract.StatusPending, Amount: 2500}},
			wantStatus: "PENDING", wantScheduled: true},
		{name: "unpaid past its expiry: expired", expiresAt: &past, consult: map[string]*family.Transaction{
			"qr-1": {TransactionType: contract.TypeReceivePix, Status: contract.StatusPending, Amount: 2500}},
			wantStatus: "EXPIRED"},
		{name: "unknown to the provider past its expiry: expired", expiresAt: &past, wantStatus: "EXPIRED"},
		{name: "unknown to the provider: checked again", wantStatus: "PENDING", wantScheduled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			c := newPendingCharge("qr-1")
			c.ExpiresAt = tt.expiresAt
			st.charges[c.ID] = c
			w, _ := fakeWorker(st, &fakeProvider{txns: tt.consult})
			if err := w.checkPendingCharges(context.Background(), 1); err != nil {
				t.Fatal(err)
			}
			if got := st.charges[c.ID]; got.Status != tt.wantStatus {
				t.Errorf("status %s, want %s", got.Status, tt.wantStatus)
			}
			if _, scheduled := st.scheduled[c.ID]; scheduled != tt.wantScheduled {
				t.Errorf("next check scheduled %v, want %v", scheduled, tt.wantScheduled)
			}
		})
	}

	st := newFakeStore()
	st.events[9] = storage.ProviderEvent{ID: 9, TransactionType: string(providerclient.KindPayout), TransactionID: "prov-1", Status: "COMPLETED"}
	st.events[10] = storage.ProviderEvent{ID: 10, ProcessedAt: &past}
	w, q := fakeWorker(st, &fakeProvider{})
	if err := w.redriveEvents(context.Background(), 42); err != nil {
		t.Fatal(err)
	}
	want, _ := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: 9,
		TransactionType: string(providerclient.KindPayout), TransactionID: "prov-1"}, 42).Task()
	if len(q.tasks) != 1 || q.tasks[0].Type() != want.Type() || string(q.tasks[0].Payload()) != string(want.Payload()) {
		t.Errorf("queued %v, want the unprocessed event's task only", q.tasks)
	}
}

// A kind of transfer storage knows and the worker has no outbound row for
// is refused by its step, which touches nothing; nothing panics.
func TestReconcileRefusesAKindItCannotSend(t *testing.T) {
	st := newFakeStore()
	tr := newTransfer(storage.KindWithdrawal, nil)
	tr.Kind = storage.TransferKind("gift")
	st.transfers[tr.ID] = tr
	w, _ := fakeWorker(st, &fakeProvider{})
	if err := w.reconcileTransfers(context.Background(), tr.Kind, 1); err == nil || !strings.Contains(err.Error(), "gift") {
		t.Fatalf("err = %v, want the step refused for the kind", err)
	}
	if len(st.outbox) > 0 || st.touched[tr.ID] > 0 {
		t.Fatalf("the step acted on a kind it cannot send: outbox %v, touched %d", st.outbox, st.touched[tr.ID])
	}
}
