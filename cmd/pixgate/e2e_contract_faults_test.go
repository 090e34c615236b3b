package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// The provider's faults through the whole stack, with each contract other
// than the family's (whose are TestE2EDuplicateOutOfOrderNotificationsCreditOnce,
// TestE2ELostNotificationReconciled and TestE2EWithdrawalsDuringAnOutageAreSentOnce):
// a charge's notification lost, another's sent five times at once and out
// of order, a withdrawal and a refund sent with their answers and
// notifications lost. Each charge is credited once, each PIX and refund is
// made once at the provider, every one settles, and the wallet moves by
// exactly what they say.
func TestE2EFaultsOfEachContract(t *testing.T) {
	for _, c := range []struct{ kind, sendRoute, refundRoute string }{
		{"efi", "/v3/gn/pix/{idEnvio}", "/v2/pix/{e2eid}/devolucao/{id}"},
		{"woovi", "/api/v1/payment", "/api/v1/charge/{id}/refund"},
	} {
		t.Run(c.kind, func(t *testing.T) {
			storagetest.Parallel(t, devStackConns)
			env := []string{"PIXGATE_PROVIDER_KIND", c.kind, "PIXGATE_SANDBOX_TLS_DIR", t.TempDir(),
				"PIXGATE_RECONCILE_INTERVAL", "200ms", "PIXGATE_RECONCILE_STALE_AFTER", "500ms", "PIXGATE_PROVIDER_TIMEOUT", "1s"}
			if c.kind == "efi" {
				env = append(env, "PIXGATE_SANDBOX_TLS_ADDR", freePorts(t, 1)[0])
			}
			s := newDevStack(t, env...)
			s.credit("100.00")
			fault := func(f map[string]any) {
				t.Helper()
				if code, v := s.control(http.MethodPost, "/sandbox/faults", f); code != http.StatusOK {
					t.Fatalf("faults %v: %d %v", f, code, v)
				}
			}
			pay := func(pixID string) {
				t.Helper()
				if code, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil); code != http.StatusOK {
					t.Fatalf("pay %s: %d %v", pixID, code, v)
				}
			}
			delivered := func() int {
				t.Helper()
				_, v := s.control(http.MethodGet, "/sandbox/stats", nil)
				n, _ := strconv.Atoi(fmt.Sprint(v["notifications_delivered"]))
				return n
			}
			// held counts the sandbox's transactions of a type by PixGate's
			// id (without hyphens: efi's txid, idEnvio and devolução id).
			held := func(typ string) map[string]int {
				t.Helper()
				_, v := s.control(http.MethodGet, "/sandbox/transactions?type="+typ, nil)
				out := map[string]int{}
				for _, tx := range v["transactions"].([]any) {
					out[strings.ReplaceAll(fmt.Sprint(tx.(map[string]any)["external_id"]), "-", "")]++
				}
				return out
			}
			key := func(id string) string { return strings.ReplaceAll(id, "-", "") }

			// A charge whose notification is lost: the reconciler's check
			// of pending charges finds it paid.
			fault(map[string]any{"drop_notifications": true})
			lost, lostPix := s.createCharge(10.00, nil)
			pay(lostPix)

			// A charge whose notification comes five times at once, out of
			// order, then a stale copy.
			fault(map[string]any{"duplicate_notifications": 5, "out_of_order_notifications": true})
			before := delivered()
			dup, dupPix := s.createCharge(40.00, nil)
			pay(dupPix)
			s.eventually("the charge notified five times PAID", 5*time.Second, func() bool { return s.status("charges", dup) == "PAID" })
			s.eventually("five copies delivered", 5*time.Second, func() bool { return delivered()-before >= 5 })

			// A withdrawal sent, its answer and its notification lost.
			fault(map[string]any{"timeout_rate": 1.0, "routes": []string{c.sendRoute}, "drop_notifications": true})
			code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 10.00, "creditParty": creditParty("beltrano@example.com")})
			if code != http.StatusCreated {
				t.Fatalf("create withdrawal: %d %v", code, v)
			}
			wd := v["id"].(string)
			s.eventually("the provider took the unanswered send", 30*time.Second, func() bool { return held("PAYMENT")[key(wd)] > 0 })

			// A refund of the charge paid above, the same way.
			fault(map[string]any{"timeout_rate": 1.0, "routes": []string{c.refundRoute}, "drop_notifications": true})
			code, v = s.call(http.MethodPost, "/api/v1/charges/"+dup+"/refunds", map[string]any{"amount": 5.00})
			if code != http.StatusCreated {
				t.Fatalf("create refund: %d %v", code, v)
			}
			rf := v["id"].(string)
			s.eventually("the provider took the unanswered refund", 30*time.Second, func() bool { return held("REFUND")[key(rf)] > 0 })

			fault(map[string]any{})
			s.eventually("withdrawal COMPLETED", 30*time.Second, func() bool { return s.status("withdrawals", wd) == "COMPLETED" })
			s.eventually("refund COMPLETED", 30*time.Second, func() bool {
				return s.count(`SELECT count(*) FROM refunds WHERE id = $1 AND status = 'COMPLETED'`, rf) == 1
			})
			// The reconciler first checks a pending charge 15 s after its
			// creation (worker's ChargeFirstCheck, tested there): as if
			// that time had passed, the check is due now.
			if _, err := s.db.Pool().Exec(context.Background(), `UPDATE charges SET next_check_at = now() WHERE id = $1 AND status = 'PENDING'`, lost); err != nil {
				t.Fatal(err)
			}
			s.eventually("the charge whose notification was lost PAID", 10*time.Second, func() bool { return s.status("charges", lost) == "PAID" })

			if n := held("PAYMENT")[key(wd)]; n != 1 {
				t.Fatalf("the withdrawal was sent %d times", n)
			}
			if n := held("REFUND")[key(rf)]; n != 1 {
				t.Fatalf("the refund was made %d times", n)
			}
			if n := s.count(`SELECT count(*) FROM ledger_transactions WHERE kind = 'charge.paid'`); n != 2 {
				t.Fatalf("charge.paid postings = %d, want 2: one per charge", n)
			}
			// 100.00 + 9.85 + 39.40 (less 1.5%) − 10.50 − 5.50 (plus the R$ 0.50 fee).
			if w := s.wallet(); w.Available != money.FromReais(133, 25) || w.Reserved != 0 {
				t.Fatalf("wallet %+v, want available 133.25, reserved 0", w)
			}
			s.auditClean()
		})
	}
}
