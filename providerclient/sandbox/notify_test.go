package sandbox

import (
	"testing"
	"time"
)

func TestPayNotifiesReceivePix(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	_, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 15, "external_id": "chg-1", "postbackUrl": rc.url()})
	id := charge["transactionId"].(string)
	status, paid := e.call("/sandbox/charges/"+id+"/pay", "", map[string]any{"payer": map[string]any{"name": "Beltrano", "document": "123.456.789-09"}}, nil)
	if status != 200 || paid["status"] != "PAID" {
		t.Fatalf("pay: %d %v", status, paid)
	}
	waitFor(t, "the RECEIVEPIX notification", func() bool { return len(rc.bodies()) == 1 })
	n := rc.bodies()[0]
	credit, _ := n["creditParty"].(map[string]any)
	debit, _ := n["debitParty"].(map[string]any)
	if n["transactionType"] != "RECEIVEPIX" || n["transactionId"] != id || n["external_id"] != "chg-1" ||
		num(n["amount"]) != "15.00" || n["paymentType"] != "PIX" || n["status"] != "PAID" ||
		!datePattern.MatchString(n["dateApproval"].(string)) ||
		credit["name"] != "Beltrano" || credit["taxId"] != "12345678909" || debit["bank"] == nil || debit["taxId"] == nil {
		t.Fatalf("notification %v", n)
	}
	if status, _ := e.call("/sandbox/charges/"+id+"/pay", "", nil, nil); status != 409 {
		t.Fatalf("second pay: %d, want 409", status)
	}
	if status, _ := e.call("/sandbox/charges/unknown/pay", "", nil, nil); status != 404 {
		t.Fatalf("unknown charge: %d, want 404", status)
	}
	if b := e.sb.Balance(); b.Available != DefaultInitialBalance+1500 {
		t.Fatalf("balance %+v", b)
	}
}

func TestNotificationFaults(t *testing.T) {
	tests := []struct {
		name     string
		faults   Faults
		failing  int // receiver errors before accepting
		want     []string
		attempts int
	}{
		{"plain", Faults{}, 0, []string{"PAID"}, 1},
		{"retried after failures", Faults{}, 2, []string{"PAID"}, 3},
		{"duplicates", Faults{DuplicateNotifications: 3}, 0, []string{"PAID", "PAID", "PAID"}, 3},
		{"out of order", Faults{DuplicateNotifications: 2, OutOfOrderNotifications: true}, 0, []string{"PAID", "PAID", "PENDING"}, 3},
		{"dropped", Faults{DropNotifications: true, DuplicateNotifications: 3}, 0, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			rc := newReceiver(t, tt.failing)
			e.sb.SetFaults(tt.faults)
			_, charge := e.post("/v2/pix/qrcode", map[string]any{"amount": 1, "postbackUrl": rc.url()})
			if _, err := e.sb.PayCharge(charge["transactionId"].(string), Payer{}); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the notifications", func() bool { return e.sb.Stats().NotificationAttempts >= tt.attempts })
			if len(tt.want) == 0 {
				time.Sleep(50 * time.Millisecond) // a dropped notification must stay dropped
			}
			waitFor(t, "delivery", func() bool { return len(rc.bodies()) >= len(tt.want) })
			got := rc.bodies()
			if len(got) != len(tt.want) {
				t.Fatalf("received %d notifications, want %d", len(got), len(tt.want))
			}
			for i, n := range got {
				if n["status"] != tt.want[i] || n["transactionId"] != charge["transactionId"] {
					t.Fatalf("notification %d: %v, want status %s", i, n, tt.want[i])
				}
			}
		})
	}
}

func TestPaymentOutOfOrderSendsProcessingLast(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	e.sb.SetFaults(Faults{OutOfOrderNotifications: true})
	req := validPayment("ooo")
	req["postbackUrl"] = rc.url()
	e.post("/v2/pix/payment", req)
	waitFor(t, "two notifications", func() bool { return len(rc.bodies()) == 2 })
	got := rc.bodies()
	if got[0]["status"] != "COMPLETED" || got[1]["status"] != "PROCESSING" || got[1]["endToEndId"] != nil {
		t.Fatalf("statuses %v then %v", got[0], got[1])
	}
}

// A receiver that refuses notifications for a while (an API restarting)
// gets each one once it accepts again: the sandbox keeps trying, with
// backoff, as real providers retry webhooks. It used to give up after 4
// tries in about a second, and withdrawals stayed PROCESSING until the
// reconciler found them minutes later.
func TestNotificationRetriedUntilTheReceiverAccepts(t *testing.T) {
	e := newEnv(t, Config{NotifyMaxInterval: 10 * time.Millisecond})
	const refused = 15
	rc := newReceiver(t, refused)
	req := validPayment("retried")
	req["postbackUrl"] = rc.url()
	if status, body := e.post("/v2/pix/payment", req); status != 200 {
		t.Fatalf("payment: %d %v", status, body)
	}
	waitFor(t, "the notification, once the receiver accepts", func() bool { return len(rc.bodies()) == 1 })
	if got := rc.bodies()[0]; got["status"] != "COMPLETED" {
		t.Fatalf("notification %v", got)
	}
	if n := e.sb.Stats().NotificationAttempts; n != refused+1 {
		t.Fatalf("%d attempts, want %d refused and 1 accepted", n, refused)
	}
}
