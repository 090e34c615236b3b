package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// The family face lists the infractions opened or closed since a time, in
// the order they were opened, a page at a time, each as
// consult-transaction describes it; it refuses a list without a since.
func TestInfractionsList(t *testing.T) {
	e := newEnv(t, Config{})
	charge := e.paidCharge("100.00")
	old, err := e.sb.OpenInfraction(charge, 1, "antiga")
	if err != nil {
		t.Fatal(err)
	}
	closedLater, err := e.sb.OpenInfraction(charge, 2, "encerrada depois")
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now()
	var ids []string
	for range 3 {
		opened, err := e.sb.OpenInfraction(charge, 3, "nova")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, opened.TransactionID)
	}
	if _, err := e.sb.CloseInfraction(closedLater.TransactionID, contract.StatusAgreed, "procedente"); err != nil {
		t.Fatal(err)
	}
	want := append([]string{closedLater.TransactionID}, ids...)

	all := e.sb.Infractions(since, 1, 10)
	if all.Total != 4 || all.Pages != 1 || len(all.Infractions) != 4 {
		t.Fatalf("since the new ones: %+v", all)
	}
	for i, inf := range all.Infractions {
		read, _ := e.sb.Transaction(want[i])
		if inf.TransactionID != want[i] || inf != read {
			t.Fatalf("item %d: %+v, want %+v", i, inf, read)
		}
	}
	if all.Infractions[0].Status != contract.StatusAgreed || all.Infractions[0].ReturnTransactionID == "" {
		t.Fatalf("the closed one: %+v", all.Infractions[0])
	}
	if got := e.sb.Infractions(time.Time{}, 1, 10); got.Total != 5 || got.Infractions[0].TransactionID != old.TransactionID {
		t.Fatalf("since ever: %+v", got)
	}
	if got := e.sb.Infractions(time.Now().Add(time.Second), 1, 10); got.Total != 0 || got.Pages != 1 || got.Infractions == nil {
		t.Fatalf("since now: %+v", got)
	}

	// Over HTTP, paged: the second page of two a page holds the third and
	// fourth of the list.
	status, body := e.post(contract.PathInfractions, map[string]any{"since": contract.FormatDate(since.Add(-time.Hour)), "page": 2, "per_page": 2})
	list, _ := body["infractions"].([]any)
	if status != http.StatusOK || num(body["total"]) != "5" || num(body["pages"]) != "3" || num(body["page"]) != "2" || len(list) != 2 ||
		list[0].(map[string]any)["transactionId"] != want[1] || list[1].(map[string]any)["transactionType"] != contract.TypeInfraction {
		t.Fatalf("page 2: %d %v", status, body)
	}
	for name, bad := range map[string]map[string]any{
		"no since":        {},
		"a since no date": {"since": "ontem"},
		"page 0 or less":  {"since": "2026-03-01 10:00:00", "page": -1},
		"too many items":  {"since": "2026-03-01 10:00:00", "per_page": contract.InfractionsMaxPerPage + 1},
	} {
		if status, body := e.post(contract.PathInfractions, bad); status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %v", name, status, body)
		}
	}
}
