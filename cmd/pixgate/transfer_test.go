package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/tasks"
)

// A withdrawal the provider lost, flagged by the reconciler: an operator
// lists it, fails one and settles another. Each is a balanced posting with
// its postback and an audit record of who, why and when; the ledger audit
// stays clean.
func TestTransferListSettleFail(t *testing.T) {
	storagetest.Parallel(t, cliConns)
	p := newPixgate(t)
	var in struct{ ID int64 }
	p.json(&in, "integrator", "create", "--name", "Loja", "--email", "ops@loja.example", "--cashout-fee", "fixed:0.50")
	p.json(&struct{}{}, "wallet", "credit", "--integrator", "1", "--amount", "100.00", "--reason", "float")
	ctx := context.Background()
	db := openSide(t, p.env["PIXGATE_DATABASE_URL"])
	lost := func(amount money.Money) uuid.UUID {
		t.Helper()
		id := uuid.Must(uuid.NewV7())
		hash := sha256.Sum256(id[:])
		url := "https://loja.example/pix"
		if _, _, err := db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: id, IntegratorID: in.ID, Amount: amount, Fee: 50, RequestHash: hash[:],
			CreditParty: storage.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
			PostbackURL: &url, Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.WithdrawalSendMessage(id, 0))}}); err != nil {
			t.Fatal(err)
		}
		if err := db.RecordTransferSent(ctx, storage.KindWithdrawal, id, "lost-"+id.String(), ""); err != nil {
			t.Fatal(err)
		}
		if flagged, err := db.FlagTransfer(ctx, storage.KindWithdrawal, id, "the provider does not know it"); err != nil || !flagged {
			t.Fatalf("flag: %v %v", flagged, err)
		}
		return id
	}
	failed, settled := lost(1000), lost(2000)

	var list struct {
		Transfers []struct {
			Kind, ID string
			Amount   json.Number
		}
	}
	p.json(&list, "transfer", "list")
	if len(list.Transfers) != 2 || list.Transfers[0].ID != failed.String() || list.Transfers[0].Kind != "withdrawal" || list.Transfers[0].Amount != "10.00" {
		t.Fatalf("list = %+v", list)
	}

	type resolved struct {
		Status string
		Action struct {
			Operator, Action, Reason string
			LedgerTransactionID      *int64 `json:"ledger_transaction_id"`
		}
	}
	var f resolved
	p.json(&f, "transfer", "fail", "--id", failed.String(), "--reason", "provider statement: never paid", "--operator", "alice")
	if f.Status != "FAILED" || f.Action.Operator != "alice" || f.Action.Action != "withdrawal.fail" ||
		f.Action.Reason != "provider statement: never paid" || f.Action.LedgerTransactionID == nil {
		t.Fatalf("fail printed %+v", f)
	}
	p.env["USER"] = "bob" // the default operator
	var s resolved
	p.json(&s, "transfer", "settle", "--id", settled.String(), "--reason", "provider statement: paid", "--end-to-end-id", "E123")
	if s.Status != "COMPLETED" || s.Action.Operator != "bob" || s.Action.Action != "withdrawal.settle" || s.Action.LedgerTransactionID == nil {
		t.Fatalf("settle printed %+v", s)
	}

	// 100.00 − (10.00 + 0.50) − (20.00 + 0.50) reserved, then 10.50 back.
	if w, _ := db.Wallet(ctx, in.ID); w.Available != 7950 || w.Reserved != 0 {
		t.Fatalf("wallet = %+v, want 79.50 available and nothing reserved", w)
	}
	if got, _ := db.TransferByID(ctx, storage.KindWithdrawal, failed); got.FailureReason == nil || *got.FailureReason != "failed by an operator: provider statement: never paid" {
		t.Fatalf("failure_reason = %v", got.FailureReason)
	}
	if got, _ := db.TransferByID(ctx, storage.KindWithdrawal, settled); got.EndToEndID == nil || *got.EndToEndID != "E123" {
		t.Fatalf("end_to_end_id = %v", got.EndToEndID)
	}
	for _, id := range []uuid.UUID{failed, settled} {
		var postbacks int
		if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM postbacks WHERE resource_id = $1`, id).Scan(&postbacks); err != nil || postbacks != 1 {
			t.Fatalf("withdrawal %s has %d postbacks (%v), want 1", id, postbacks, err)
		}
		if actions, _ := db.OperatorActions(ctx, id); len(actions) != 1 || actions[0].CreatedAt.IsZero() {
			t.Fatalf("withdrawal %s audit trail %+v", id, actions)
		}
	}
	var audit struct{ OK bool }
	p.json(&audit, "audit")
	if !audit.OK {
		t.Fatal("ledger audit after the operator resolutions is not clean")
	}
	list.Transfers = nil
	p.json(&list, "transfer", "list")
	if len(list.Transfers) != 0 {
		t.Fatalf("resolved transfers still listed: %+v", list)
	}

	// Refused: a second decision, an unflagged transfer without --force, no reason.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"transfer", "settle", "--id", failed.String(), "--reason", "again"}, "no longer PROCESSING"},
		{[]string{"transfer", "fail", "--id", uuid.NewString(), "--reason", "x"}, "not found"},
		{[]string{"transfer", "fail", "--id", "nope", "--reason", "x"}, "not a withdrawal or refund id"},
		{[]string{"transfer", "fail", "--id", failed.String(), "--reason", " "}, "--reason"},
	} {
		if code, _, errs := p.run(tc.args...); code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("pixgate %v: exit %d, stderr %q; want a refusal naming %q", tc.args, code, errs, tc.want)
		}
	}
	unflagged := uuid.Must(uuid.NewV7())
	hash := sha256.Sum256(unflagged[:])
	if _, _, err := db.CreateWithdrawal(ctx, storage.NewWithdrawal{ID: unflagged, IntegratorID: in.ID, Amount: 100, Fee: 50, RequestHash: hash[:],
		CreditParty: storage.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"}}); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := p.run("transfer", "fail", "--id", unflagged.String(), "--reason", "x"); code == 0 || !strings.Contains(errs, "not flagged") {
		t.Fatalf("unflagged without --force: exit %d, %q", code, errs)
	}
	p.json(&f, "transfer", "fail", "--id", unflagged.String(), "--reason", "duplicate request, agreed with the integrator", "--force")
	if f.Status != "FAILED" {
		t.Fatalf("forced fail printed %+v", f)
	}
}
