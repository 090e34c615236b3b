package worker

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
)

// The worker's decisions, table by table, on the fakes (fake_store_test.go, fake_tx_test.go):
// no Postgres, Redis or provider is reached. The integration tests beside
// these run the same paths against the real ones.

func ptr[T any](v T) *T { return &v }

// newTransfer is a PROCESSING transfer with a postback URL; pixID nil
// means never sent.
func newTransfer(kind storage.TransferKind, pixID *string) storage.Transfer {
	t := storage.Transfer{Kind: kind, ID: uuid.Must(uuid.NewV7()), IntegratorID: 7, Amount: 1000, Fee: 50,
		Status: storage.TransferProcessing, PixID: pixID, PostbackURL: ptr("https://loja.example/pix"), CreatedAt: time.Now(),
		CreditParty: storage.CreditParty{Name: "Beltrano", KeyType: "EMAIL", Key: "b@example.com", TaxID: "52998224725"}}
	if kind == storage.KindRefund {
		t.ChargeID, t.ChargePixID, t.CreditParty = uuid.Must(uuid.NewV7()), "charge-pix", storage.CreditParty{}
	}
	return t
}

func newPendingCharge(pixID string) storage.Charge {
	return storage.Charge{ID: uuid.Must(uuid.NewV7()), IntegratorID: 7, ExternalID: "pedido-1", Amount: 2500, Fee: 38,
		Status: storage.ChargePending, PixID: &pixID, PostbackURL: ptr("https://loja.example/pix"), CreatedAt: time.Now()}
}

// rejected is a refusal the connector could not prove left nothing
// behind (it may mean "this id was used already"); refusedAbsent one it
// proved did.
func rejected(msg string) error {
	return &providerclient.Error{Op: "create payment", Kind: providerclient.ErrRejected, StatusCode: 422, Message: msg}
}

func refusedAbsent(msg string) error {
	return &providerclient.Error{Op: "create payment", Kind: providerclient.ErrRejected, StatusCode: 422, Message: msg, Absent: true}
}

// What the provider confirmed becomes PixGate's state once: the outcome
// recorded, the record's status, the postings and postbacks written.
func TestApplyConfirmedDecides(t *testing.T) {
	sent := "prov-1"
	tests := []struct {
		name         string
		transfer     *storage.Transfer // one of transfer and charge is the record
		charge       *storage.Charge
		txn          family.Transaction // ExternalID "" is set to the record's id
		wantOutcome  string             // "" ids replaced: %id
		wantStatus   string
		wantPostings int
		wantPostback string // the event posted, "" for none
	}{
		{name: "withdrawal confirmed", transfer: ptr(newTransfer(storage.KindWithdrawal, &sent)),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusCompleted, EndToEndID: "E1"},
			wantOutcome: "applied: withdrawal completed", wantStatus: "COMPLETED", wantPostings: 1, wantPostback: "COMPLETED"},
		{name: "withdrawal failed", transfer: ptr(newTransfer(storage.KindWithdrawal, &sent)),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusFailed, FailureReason: "conta encerrada"},
			wantOutcome: "applied: withdrawal failed", wantStatus: "FAILED", wantPostings: 1, wantPostback: "FAILED"},
		{name: "duplicate of a confirmation", transfer: ptr(func() storage.Transfer {
			t := newTransfer(storage.KindWithdrawal, &sent)
			t.Status = storage.TransferCompleted
			return t
		}()),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusCompleted},
			wantOutcome: "already applied: withdrawal completed", wantStatus: "COMPLETED"},
		{name: "failure after completion changes nothing", transfer: ptr(func() storage.Transfer {
			t := newTransfer(storage.KindWithdrawal, &sent)
			t.Status = storage.TransferCompleted
			return t
		}()),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusFailed},
			wantOutcome: "already applied: withdrawal failed", wantStatus: "COMPLETED"},
		{name: "still in flight at the provider", transfer: ptr(newTransfer(storage.KindWithdrawal, &sent)),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: "PROCESSING"},
			wantOutcome: "no change: withdrawal is PROCESSING at the provider", wantStatus: "PROCESSING"},
		{name: "refund confirmed", transfer: ptr(newTransfer(storage.KindRefund, &sent)),
			txn:         family.Transaction{TransactionType: contract.TypeRefund, TransactionID: sent, Status: contract.StatusCompleted},
			wantOutcome: "applied: refund completed", wantStatus: "COMPLETED", wantPostings: 1, wantPostback: "COMPLETED"},
		{name: "a refund is not a payment", transfer: ptr(newTransfer(storage.KindRefund, &sent)),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusCompleted},
			wantOutcome: "ignored: no withdrawal for transaction prov-1", wantStatus: "PROCESSING"},
		{name: "the record belongs to another transaction", transfer: ptr(newTransfer(storage.KindWithdrawal, ptr("prov-other"))),
			txn:         family.Transaction{TransactionType: contract.TypePayment, TransactionID: sent, Status: contract.StatusCompleted},
			wantOutcome: "ignored: withdrawal %id belongs to transaction prov-other", wantStatus: "PROCESSING"},
		{name: "charge paid", charge: ptr(newPendingCharge("qr-1")),
			txn:         family.Transaction{TransactionType: contract.TypeReceivePix, TransactionID: "qr-1", Status: contract.StatusPaid, Amount: 2500},
			wantOutcome: "applied: charge paid", wantStatus: "PAID", wantPostings: 1, wantPostback: "PAID"},
		{name: "charge paid a different amount", charge: ptr(newPendingCharge("qr-1")),
			txn:         family.Transaction{TransactionType: contract.TypeReceivePix, TransactionID: "qr-1", Status: contract.StatusPaid, Amount: 2400},
			wantOutcome: "refused: paid 24.00 but the charge is 25.00", wantStatus: "PENDING"},
		{name: "charge expired", charge: ptr(newPendingCharge("qr-1")),
			txn:         family.Transaction{TransactionType: contract.TypeReceivePix, TransactionID: "qr-1", Status: contract.StatusExpired},
			wantOutcome: "applied: charge expired", wantStatus: "EXPIRED", wantPostback: "EXPIRED"},
		{name: "unknown transaction type", charge: ptr(newPendingCharge("qr-1")),
			txn:         family.Transaction{TransactionType: "CASHBACK", TransactionID: "qr-1", Status: contract.StatusPaid},
			wantOutcome: `ignored: unknown transaction type "CASHBACK"`, wantStatus: "PENDING"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newFakeStore()
			var id uuid.UUID
			if tt.transfer != nil {
				id = tt.transfer.ID
				st.transfers[id] = *tt.transfer
			} else {
				id = tt.charge.ID
				st.charges[id] = *tt.charge
			}
			w, _ := fakeWorker(st, &fakeProvider{})
			txn := tt.txn
			if txn.ExternalID == "" {
				txn.ExternalID = id.String()
			}
			var recorded string
			n := family.Neutral(txn)
			o, err := w.applyConfirmed(context.Background(), &n, func(_ Tx, o outcome) error { recorded = o.String(); return nil })
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.wantOutcome, "%id", id.String())
			if o.String() != want || recorded != want {
				t.Errorf("outcome %q (recorded %q), want %q", o, recorded, want)
			}
			status := string(st.transfers[id].Status)
			if tt.charge != nil {
				status = string(st.charges[id].Status)
			}
			if status != tt.wantStatus || len(st.postings) != tt.wantPostings {
				t.Errorf("status %s with %d postings, want %s with %d", status, len(st.postings), tt.wantStatus, tt.wantPostings)
			}
			var events []string
			for _, p := range st.postbacks {
				events = append(events, p.Event)
			}
			if tt.wantPostback == "" && len(events) > 0 || tt.wantPostback != "" && !slices.Equal(events, []string{tt.wantPostback}) {
				t.Errorf("postbacks %v, want %q", events, tt.wantPostback)
			}
			if tt.txn.Status == contract.StatusFailed && status == "FAILED" {
				if r := st.transfers[id].FailureReason; r == nil || *r != "conta encerrada" {
					t.Errorf("failure_reason %v, want the provider's", r)
				}
			}
		})
	}
}

// A send's outcome at the provider decides the transfer: accepted is
// recorded, a refusal that proves nothing is held fails it at once,
// anything uncertain (a bare refusal included) is retried and changes
// nothing.
func TestSendTransferDecides(t *testing.T) {
	tests := []struct {
		name       string
		kind       storage.TransferKind
		before     func(*storage.Transfer)
		sendErr    error
		wantErr    error // errors.Is; nil: none
		wantSent   bool  // the provider was asked
		wantStatus storage.TransferStatus
		wantPixID  string
		wantReason string
	}{
		{name: "accepted", kind: storage.KindWithdrawal, wantSent: true, wantStatus: "PROCESSING", wantPixID: "prov-%id"},
		{name: "refund accepted", kind: storage.KindRefund, wantSent: true, wantStatus: "PROCESSING", wantPixID: "prov-%id"},
		{name: "rejected, nothing held", kind: storage.KindWithdrawal, sendErr: refusedAbsent("chave inexistente"),
			wantStatus: "FAILED", wantReason: "provider rejected the payment: chave inexistente"},
		{name: "refund rejected, nothing held", kind: storage.KindRefund, sendErr: refusedAbsent("prazo expirado"),
			wantStatus: "FAILED", wantReason: "provider rejected the refund: prazo expirado"},
		{name: "rejected without proof (the id may be used by an earlier send): retried, never failed", kind: storage.KindWithdrawal,
			sendErr: rejected("id_envio_duplicado"), wantErr: providerclient.ErrRejected, wantStatus: "PROCESSING"},
		{name: "refund rejected without proof: retried", kind: storage.KindRefund,
			sendErr: rejected("devolução já existe"), wantErr: providerclient.ErrRejected, wantStatus: "PROCESSING"},
		{name: "unknown outcome is retried", kind: storage.KindWithdrawal,
			sendErr: &providerclient.Error{Op: "create payment", Kind: providerclient.ErrUnknownOutcome},
			wantErr: providerclient.ErrUnknownOutcome, wantStatus: "PROCESSING"},
		{name: "breaker open is retried", kind: storage.KindRefund,
			sendErr: &providerclient.Error{Op: "create refund", Kind: providerclient.ErrBreakerOpen},
			wantErr: providerclient.ErrBreakerOpen, wantStatus: "PROCESSING"},
		{name: "already sent", kind: storage.KindWithdrawal, before: func(t *storage.Transfer) { t.PixID = ptr("prov-earlier") },
			wantStatus: "PROCESSING", wantPixID: "prov-earlier"},
		{name: "already final", kind: storage.KindWithdrawal, before: func(t *storage.Transfer) { t.Status = storage.TransferFailed },
			wantStatus: "FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, p := newFakeStore(), &fakeProvider{sendErr: tt.sendErr}
			tr := newTransfer(tt.kind, nil)
			if tt.before != nil {
				tt.before(&tr)
			}
			st.transfers[tr.ID] = tr
			w, _ := fakeWorker(st, p)
			err := w.sendTransfer(context.Background(), tt.kind, tr.ID)
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got := len(p.sent) == 1 && p.sent[0] == tr.ID.String(); got != tt.wantSent {
				t.Errorf("sent %v, want one send with the transfer's id as external_id: %v", p.sent, tt.wantSent)
			}
			got := st.transfers[tr.ID]
			pixID := ""
			if got.PixID != nil {
				pixID = *got.PixID
			}
			if got.Status != tt.wantStatus || pixID != strings.ReplaceAll(tt.wantPixID, "%id", tr.ID.String()) {
				t.Errorf("status %s, pix_id %q; want %s, %q", got.Status, pixID, tt.wantStatus, tt.wantPixID)
			}
			if tt.wantReason != "" {
				if got.FailureReason == nil || *got.FailureReason != tt.wantReason || len(st.postings) != 1 || len(st.postbacks) != 1 {
					t.Errorf("failure %v with %d postings and %d postbacks; want %q, one of each", got.FailureReason, len(st.postings), len(st.postbacks), tt.wantReason)
				}
			} else if len(st.postings) != 0 {
				t.Errorf("postings %v, want none", st.postings)
			}
		})
	}
	// A transfer that does not exist is not worth retrying.
	w, _ := fakeWorker(newFakeStore(), &fakeProvider{})
	if err := w.sendTransfer(context.Background(), storage.KindWithdrawal, uuid.New()); !errors.Is(err, asynq.SkipRetry) {
		t.Errorf("missing transfer: %v, want SkipRetry", err)
	}
}
