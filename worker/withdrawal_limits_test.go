package worker

import (
	"context"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
)

// A withdrawal never moves to a provider whose per-PIX limit its amount
// passes: refused at a, with b's limit below it, it fails at a.
func TestWithdrawalFailoverSkipsAProviderOverItsLimit(t *testing.T) {
	st := newFakeStore()
	a := &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: refusedAbsent("no balance")}
	b := &fakeProvider{txns: map[string]*family.Transaction{}}
	w := twoProviderWorker(t, st, a, b)
	tr := newTransfer(storage.KindWithdrawal, nil)
	tr.Provider = "a"
	st.route.Limits = map[string]storage.PixLimit{"b": {Max: tr.Amount - 1}}
	st.transfers[tr.ID] = tr
	if err := w.sendTransfer(context.Background(), storage.KindWithdrawal, tr.ID); err != nil {
		t.Fatal(err)
	}
	got := st.transfers[tr.ID]
	if got.Provider != "a" || got.Status != storage.TransferFailed || len(st.moves) != 0 || len(b.sent) != 0 {
		t.Fatalf("at %q, %s, moves %v, sent at b %d; want failed at a, never sent at b", got.Provider, got.Status, st.moves, len(b.sent))
	}
	// Within b's limit it moves, as before.
	st2 := newFakeStore()
	w2 := twoProviderWorker(t, st2, &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: refusedAbsent("no balance")},
		&fakeProvider{txns: map[string]*family.Transaction{}})
	tr2 := newTransfer(storage.KindWithdrawal, nil)
	tr2.Provider = "a"
	st2.route.Limits = map[string]storage.PixLimit{"b": {Max: tr2.Amount}}
	st2.transfers[tr2.ID] = tr2
	if err := w2.sendTransfer(context.Background(), storage.KindWithdrawal, tr2.ID); err != nil {
		t.Fatal(err)
	}
	if got := st2.transfers[tr2.ID]; got.Provider != "b" {
		t.Fatalf("at %q; want moved to b, whose limit is the amount", got.Provider)
	}
}

// A send refused because the DICT marks the key for fraud fails the
// withdrawal with key_fraud_marked at once: never moved to the next
// provider, never retried, proved absent or not (a first send).
func TestFraudMarkedKeyFailsTheWithdrawalWithoutFailover(t *testing.T) {
	for name, aErr := range map[string]error{
		"proved absent":        refusedAbsent("the PIX key is marked for fraud in the directory (DICT)"),
		"first send, no proof": rejected("Chave marcada por suspeita de fraude"),
	} {
		t.Run(name, func(t *testing.T) {
			st := newFakeStore()
			a := &fakeProvider{txns: map[string]*family.Transaction{}, sendErr: aErr}
			b := &fakeProvider{txns: map[string]*family.Transaction{}}
			w := twoProviderWorker(t, st, a, b)
			tr := newTransfer(storage.KindWithdrawal, nil)
			tr.Provider = "a"
			st.transfers[tr.ID] = tr
			if err := w.sendTransfer(context.Background(), storage.KindWithdrawal, tr.ID); err != nil {
				t.Fatalf("sendTransfer = %v; want it failed, not retried", err)
			}
			got := st.transfers[tr.ID]
			if got.Status != storage.TransferFailed || got.Provider != "a" || len(st.moves) != 0 || len(b.sent) != 0 {
				t.Fatalf("%s at %q, moves %v, sent at b %d; want failed at a", got.Status, got.Provider, st.moves, len(b.sent))
			}
			if got.FailureReason == nil || !strings.HasPrefix(*got.FailureReason, "key_fraud_marked: ") {
				t.Fatalf("failure reason %v; want it to start with key_fraud_marked", got.FailureReason)
			}
		})
	}
}
