package woovi_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/woovi"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// wooviInstallments is a handwritten Woovi holding one subscription's
// installments, answering as its pages show: the list, an installment
// bare (as Woovi's routes page) and the manual cobr, which refuse makes
// it refuse (400) after doing what made does.
type wooviInstallments struct {
	mu      sync.Mutex
	list    []wooviapi.Installment
	posts   int
	refuse  bool
	made    func(*wooviapi.Installment, int64)
	lastURL string
}

func (f *wooviInstallments) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastURL = r.URL.String()
	w.Header().Set("Content-Type", "application/json")
	switch path := r.URL.Path; {
	case path == "/api/v1/subscriptions/sub1/installments":
		_ = json.NewEncoder(w).Encode(wooviapi.InstallmentList{Installments: f.list})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/cobr"):
		f.posts++
		var body wooviapi.CobrRequest
		_ = json.NewDecoder(r.Body).Decode(&body)
		if i := f.find(strings.TrimSuffix(strings.TrimPrefix(path, "/api/v1/installments/"), "/cobr")); i != nil && f.made != nil {
			f.made(i, body.Value)
		}
		if f.refuse {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":"installment already has a cobr"}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	case strings.HasPrefix(path, "/api/v1/installments/"):
		if i := f.find(strings.TrimPrefix(path, "/api/v1/installments/")); i != nil {
			_ = json.NewEncoder(w).Encode(i)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":"installment not found"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (f *wooviInstallments) find(id string) *wooviapi.Installment {
	for i := range f.list {
		if f.list[i].GlobalID == id {
			return &f.list[i]
		}
	}
	return nil
}

// makeCobr is what Woovi's manual cobr route makes: a CREATED cobr of the
// value, its first try asked for the installment's day.
func makeCobr(i *wooviapi.Installment, value int64) {
	i.Cobr = &wooviapi.Cobr{IdentifierID: "01K3942Y0DFEK73H541ZADVK0P", Status: wooviapi.CobrCreated, Value: value,
		Tries: []wooviapi.CobrTry{{TryStatus: wooviapi.TryRequested, FinalityPurpose: "AGND", RequestedExecutionDate: i.DateGenerateCharge}}}
}

func newInstallmentsConn(t *testing.T, f *wooviInstallments) providerclient.Connector {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	conn, err := woovi.New(providerclient.Config{Kind: providerclient.KindWoovi, ClientID: "app-id", BaseURL: srv.URL, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func cycleRequest(day due.Date, amount money.Money) providerclient.CycleRequest {
	return providerclient.CycleRequest{ID: newID(), Recurrence: providerclient.RecurrenceRef{ID: newID(), ProviderID: "sub1"},
		N: 1, DueDate: day, Amount: amount}
}

// SendCycle finds the installment of the due date, makes its cobr with
// the cycle's value once, and answers a repeat with it; a cobr of another
// value, an installment Woovi does not list and a request naming too
// little are refused, the last before any call.
func TestCycleSendFindsTheInstallment(t *testing.T) {
	aug24, aug31 := due.Date{Year: 2025, Month: 8, Day: 24}, due.Date{Year: 2025, Month: 8, Day: 31}
	f := &wooviInstallments{made: makeCobr, list: []wooviapi.Installment{
		{GlobalID: "inst1", InstallmentNumber: 1, DateGenerateCharge: "2025-08-24T12:00:00.000Z", Value: 100, Status: "SCHEDULED",
			PaymentSubscriptionGlobalID: "sub1"},
		{GlobalID: "inst2", InstallmentNumber: 2, DateGenerateCharge: "2025-08-31T12:00:00.000Z", Value: 100, Status: "SCHEDULED",
			PaymentSubscriptionGlobalID: "sub1"},
	}}
	conn := newInstallmentsConn(t, f)
	ctx := t.Context()
	req := cycleRequest(aug31, 150)
	cy, err := conn.SendCycle(ctx, req)
	want := &providerclient.Cycle{ProviderID: "inst2", Status: recurrence.CycleCreated, DueDate: aug31, Amount: 150,
		Attempts: []providerclient.Attempt{{Kind: recurrence.AttemptFirst, SettleOn: aug31, Status: recurrence.AttemptRequested}}}
	if err != nil || !reflect.DeepEqual(cy, want) || f.posts != 1 {
		t.Fatalf("send: %+v, %v (%d posts)", cy, err, f.posts)
	}
	if again, err := conn.SendCycle(ctx, req); err != nil || !reflect.DeepEqual(again, want) || f.posts != 1 {
		t.Fatalf("a repeat: %+v, %v (%d posts)", again, err, f.posts)
	}
	other := req
	other.Amount = 120
	if _, err := conn.SendCycle(ctx, other); !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), "150 centavos, not 120") {
		t.Fatalf("another value: %v", err)
	}
	if _, err := conn.SendCycle(ctx, cycleRequest(aug24.AddDays(1), 100)); !errors.Is(err, providerclient.ErrRejected) ||
		errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("a day without installment: %v", err)
	}
	for name, change := range map[string]func(*providerclient.CycleRequest){
		"no subscription": func(r *providerclient.CycleRequest) { r.Recurrence.ProviderID = "" },
		"no due date":     func(r *providerclient.CycleRequest) { r.DueDate = due.Date{} },
		"no amount":       func(r *providerclient.CycleRequest) { r.Amount = 0 },
	} {
		r := cycleRequest(aug24, 100)
		change(&r)
		if _, err := conn.SendCycle(ctx, r); !errors.Is(err, providerclient.ErrRejected) || !errors.Is(err, providerclient.ErrProvedAbsent) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if f.posts != 1 {
		t.Fatalf("%d posts", f.posts)
	}
}

// A refused cobr is read back: made (the refusal a repeat's, or Woovi's
// own cobr made meanwhile) with the same value, it is the answer;
// otherwise the refusal stands.
func TestCycleSendRefusedReadsBack(t *testing.T) {
	day := due.Date{Year: 2025, Month: 8, Day: 24}
	inst := wooviapi.Installment{GlobalID: "inst1", DateGenerateCharge: "2025-08-24T12:00:00.000Z", Value: 100, Status: "SCHEDULED"}
	f := &wooviInstallments{refuse: true, made: makeCobr, list: []wooviapi.Installment{inst}}
	conn := newInstallmentsConn(t, f)
	if cy, err := conn.SendCycle(t.Context(), cycleRequest(day, 100)); err != nil || cy.ProviderID != "inst1" || cy.Status != recurrence.CycleCreated {
		t.Fatalf("made, then refused: %+v, %v", cy, err)
	}
	f.list, f.made = []wooviapi.Installment{inst}, nil
	if _, err := conn.SendCycle(t.Context(), cycleRequest(day, 100)); !errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "already has a cobr") {
		t.Fatalf("refused, nothing made: %v", err)
	}
}

// ReadCycle reads Woovi's installment in PixGate's terms: each cobr
// status, its tries as attempts, the payment's end-to-end id and time,
// and a rejection as REJECTED or EXPIRED by its code.
func TestCycleReadMapsWooviStatuses(t *testing.T) {
	day := due.Date{Year: 2025, Month: 9, Day: 5}
	try := func(st, kind, code string) wooviapi.CobrTry {
		return wooviapi.CobrTry{TryStatus: st, FinalityPurpose: kind, RejectCode: code, RequestedExecutionDate: "2025-09-05T12:00:00.000Z",
			UpdatedAt: "2025-09-05T11:00:00.000Z"}
	}
	for name, c := range map[string]struct {
		cobr     *wooviapi.Cobr
		instSt   string
		status   recurrence.CycleStatus
		code     string
		attempts int
		err      error
	}{
		"created":               {cobr: &wooviapi.Cobr{Status: "CREATED", Tries: []wooviapi.CobrTry{try("REQUESTED", "AGND", "")}}, status: "CREATED", attempts: 1},
		"active":                {cobr: &wooviapi.Cobr{Status: "ACTIVE", Tries: []wooviapi.CobrTry{try("SCHEDULED", "AGND", "")}}, status: "ACTIVE", attempts: 1},
		"a try failed":          {cobr: &wooviapi.Cobr{Status: "FAILED_TRY", Tries: []wooviapi.CobrTry{try("REJECTED", "AGND", "AM02")}}, status: "CREATED", attempts: 1},
		"concluded":             {cobr: &wooviapi.Cobr{Status: "CONCLUDED", EndToEndID: "E1"}, status: "PAID"},
		"rejected, ends":        {cobr: &wooviapi.Cobr{Status: "REJECTED", RejectCode: "DTED", Tries: []wooviapi.CobrTry{try("REJECTED", "AGND", "DTED")}}, status: "REJECTED", code: "DTED", attempts: 1},
		"rejected, retries out": {cobr: &wooviapi.Cobr{Status: "REJECTED", Tries: []wooviapi.CobrTry{try("REJECTED", "AGND", "AM02"), try("REJECTED", "", "AM02")}}, status: "EXPIRED", code: "AM02", attempts: 2},
		"rejected, no code":     {cobr: &wooviapi.Cobr{Status: "REJECTED"}, status: "EXPIRED"},
		"canceled":              {cobr: &wooviapi.Cobr{Status: "CANCELED"}, status: "CANCELLED"},
		"installment canceled":  {instSt: "CANCELED", status: "CANCELLED"},
		"no cobr":               {instSt: "SCHEDULED", err: providerclient.ErrProvedAbsent},
		"unknown status":        {cobr: &wooviapi.Cobr{Status: "WEIRD"}, err: providerclient.ErrUnknownOutcome},
		"unknown try":           {cobr: &wooviapi.Cobr{Status: "CREATED", Tries: []wooviapi.CobrTry{try("LOST", "AGND", "")}}, err: providerclient.ErrUnknownOutcome},
	} {
		inst := wooviapi.Installment{GlobalID: "inst1", DateGenerateCharge: "2025-09-05T12:00:00.000Z", Value: 100, Status: c.instSt, Cobr: c.cobr}
		conn := newInstallmentsConn(t, &wooviInstallments{list: []wooviapi.Installment{inst}})
		cy, err := conn.ReadCycle(t.Context(), providerclient.CycleRef{ProviderID: "inst1"})
		switch {
		case c.err != nil:
			if !errors.Is(err, c.err) {
				t.Errorf("%s: %+v, %v", name, cy, err)
			}
		case err != nil || cy.Status != c.status || cy.RejectionCode != c.code || len(cy.Attempts) != c.attempts || cy.DueDate != day:
			t.Errorf("%s: %+v, %v", name, cy, err)
		}
	}
}

// Woovi's example of a paid installment reads as PAID with its end-to-end
// id on the paid attempt and the cycle, and the time of that try; a read
// by subscription and due date finds it; one of another subscription is
// not it; a ref naming nothing is refused.
func TestCycleReadPaid(t *testing.T) {
	var inst wooviapi.Installment
	if err := json.Unmarshal([]byte(cobrCompleted), &inst); err != nil {
		t.Fatal(err)
	}
	inst.PaymentSubscriptionGlobalID = "sub1"
	conn := newInstallmentsConn(t, &wooviInstallments{list: []wooviapi.Installment{inst}})
	ctx := t.Context()
	day := due.Date{Year: 2025, Month: 8, Day: 24}
	at := time.Date(2025, 9, 4, 3, 4, 3, 921e6, time.UTC)
	want := &providerclient.Cycle{ProviderID: inst.GlobalID, Status: recurrence.CyclePaid, DueDate: day, Amount: 100,
		EndToEndID: "my-end-to-end-id", PaidAt: at, Attempts: []providerclient.Attempt{{Kind: recurrence.AttemptFirst,
			SettleOn: due.Date{Year: 2025, Month: 9, Day: 5}, Status: recurrence.AttemptPaid, EndToEndID: "my-end-to-end-id"}}}
	for _, ref := range []providerclient.CycleRef{{ProviderID: inst.GlobalID}, {Recurrence: providerclient.RecurrenceRef{ProviderID: "sub1"}, DueDate: day}} {
		if cy, err := conn.ReadCycle(ctx, ref); err != nil || !reflect.DeepEqual(cy, want) {
			t.Fatalf("read %+v: %+v, %v", ref, cy, err)
		}
	}
	if _, err := conn.ReadCycle(ctx, providerclient.CycleRef{ProviderID: inst.GlobalID, Recurrence: providerclient.RecurrenceRef{ProviderID: "sub2"}}); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("of another subscription: %v", err)
	}
	if _, err := conn.ReadCycle(ctx, providerclient.CycleRef{ProviderID: "nope"}); !errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("unknown: %v", err)
	}
	if _, err := conn.ReadCycle(ctx, providerclient.CycleRef{ID: newID()}); !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("naming nothing: %v", err)
	}
}

// Woovi retries by itself: RetryCycle asks nothing; it cancels no cycle.
func TestCycleRetryAndCancel(t *testing.T) {
	f := &wooviInstallments{}
	conn := newInstallmentsConn(t, f)
	if !conn.Capabilities().RetriesItself {
		t.Fatal("RetriesItself is false")
	}
	if err := conn.RetryCycle(t.Context(), providerclient.CycleRef{ProviderID: "inst1"}, due.Date{Year: 2025, Month: 9, Day: 6}); err != nil || f.lastURL != "" {
		t.Fatalf("retry: %v (asked %q)", err, f.lastURL)
	}
	if err := conn.CancelCycle(t.Context(), providerclient.CycleRef{ProviderID: "inst1"}); !errors.Is(err, providerclient.ErrUnsupported) || f.lastURL != "" {
		t.Fatalf("cancel: %v (asked %q)", err, f.lastURL)
	}
}
