package console

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// The transfers page lists the payouts late for their deadline, one still
// in flight marked open with how late it is now, one finished late with
// how late it finished; none: it says so.
func TestTransfersPageListsLatePayouts(t *testing.T) {
	now := time.Now()
	due, finished := now.Add(-time.Hour), now.Add(-50*time.Minute)
	inFlight, finishedLate := uuid.New(), uuid.New()
	ext := "premio-42"
	store := &fakeStore{endpointStore: endpointStore{late: []storage.Transfer{
		{Kind: storage.KindWithdrawal, ID: inFlight, IntegratorID: 7, ExternalID: &ext, Amount: 150000, Status: storage.TransferProcessing,
			Provider: "default", DueAt: &due},
		{Kind: storage.KindWithdrawal, ID: finishedLate, IntegratorID: 7, Amount: 2000, Status: storage.TransferCompleted,
			Provider: "b", DueAt: &due, FinishedAt: &finished},
	}}}
	h := New(Config{Store: store, Operator: func(*http.Request) string { return "ana" }})
	get := func() string {
		rw := httptest.NewRecorder()
		h.ServeHTTP(rw, httptest.NewRequest(http.MethodGet, "/console/transfers", nil))
		if rw.Code != http.StatusOK {
			t.Fatalf("transfers page: %d %s", rw.Code, rw.Body)
		}
		return rw.Body.String()
	}
	body := get()
	for _, want := range []string{`id="late-` + inFlight.String() + `" class="open"`, "premio-42", "1500.00", "1h0m0s",
		`id="late-` + finishedLate.String() + `">`, "10m0s"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the late payouts: no %q in\n%s", want, body)
		}
	}
	store.late = nil
	if body := get(); !strings.Contains(body, `id="none-late"`) {
		t.Fatalf("no late payout: %s", body)
	}
}
