package tasks

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

func TestEveryTypeHasOptionsAndAQueue(t *testing.T) {
	for _, typ := range []string{TypeWithdrawalSend, TypeRefundSend, TypeMedReturnSend, TypeProviderEvent, TypePostbackDeliver, TypeReconcileTick} {
		task, err := NewTask(typ, "id-1", []byte(`{}`))
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if task.Type() != typ {
			t.Fatalf("type = %q", task.Type())
		}
		queue := ""
		for _, o := range options[typ] {
			if o.Type() == asynq.QueueOpt {
				queue = o.Value().(string)
			}
		}
		if !slices.Contains(Queues, queue) {
			t.Errorf("%s goes to queue %q, which no server listens on", typ, queue)
		}
	}
	if _, err := NewTask("nope:nope", "x", nil); err == nil {
		t.Fatal("unknown type accepted")
	}
}

func TestWithdrawalSendMessage(t *testing.T) {
	id := uuid.MustParse("01890a5d-ac96-774b-bcce-b302099a8057")
	m := WithdrawalSendMessage(id, 0)
	if m.ID != "withdrawal:send:01890a5d-ac96-774b-bcce-b302099a8057" || m.Type != TypeWithdrawalSend {
		t.Fatalf("message = %+v", m)
	}
	if again := WithdrawalSendMessage(id, 0); again.ID != m.ID {
		t.Fatal("the TaskID must be derived from the withdrawal id alone")
	}
	if WithdrawalSendMessage(id, 2).ID == m.ID {
		t.Fatal("a re-drive attempt must get its own TaskID")
	}
	task, _ := m.Task()
	var p WithdrawalSend
	if err := Decode(task, &p); err != nil || p.WithdrawalID != id {
		t.Fatalf("decode = %+v, %v", p, err)
	}
	bad := asynq.NewTask(TypeWithdrawalSend, []byte(`{"withdrawal_id": 7}`))
	if err := Decode(bad, &p); !errors.Is(err, asynq.SkipRetry) {
		t.Fatalf("undecodable payload: %v, want SkipRetry", err)
	}
}

// Event ids come from a sequence that starts again in a new database (or
// goes back in one restored from a backup), while the queue keeps finished
// task ids for a day: the first task of a new notification must not carry
// an id the queue may still hold from another database's event of the
// same number, or the queue drops it as a duplicate and the notification
// waits for the reconciler.
func TestNewProviderEventTaskIDsNeverRepeatAcrossDatabases(t *testing.T) {
	ev := ProviderEvent{EventID: 1, TransactionType: "payout", TransactionID: "abc"}
	first, again := NewProviderEventMessage(ev), NewProviderEventMessage(ev)
	if first.ID == again.ID {
		t.Fatalf("two databases' event 1 got the same TaskID %q", first.ID)
	}
	if first.ID == ProviderEventMessage(ev, 0).ID {
		t.Fatalf("TaskID %q is the sequence's number alone", first.ID)
	}
	for _, m := range []Message{first, again} {
		task, _ := m.Task()
		var p ProviderEvent
		if err := Decode(task, &p); err != nil || p != ev {
			t.Fatalf("decode = %+v, %v", p, err)
		}
	}
}
