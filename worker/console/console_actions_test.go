package console

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// endpointStore is the fake store's transfers and endpoints: one flagged
// withdrawal, one endpoint; pauses, resumes and actions are recorded.
type endpointStore struct {
	flagged  storage.FlaggedTransfer
	late     []storage.Transfer
	endpoint storage.WebhookEndpoint
	calls    []string
	actions  []storage.OperatorAction
	epErr    error
}

func (f *endpointStore) FlaggedTransfers(context.Context, int) ([]storage.FlaggedTransfer, error) {
	return []storage.FlaggedTransfer{f.flagged}, nil
}

func (f *endpointStore) LatePayouts(context.Context, time.Time, storage.LateFilter) ([]storage.Transfer, error) {
	return f.late, nil
}

func (f *endpointStore) AllEndpoints(context.Context, time.Time, int) ([]storage.WebhookEndpoint, error) {
	return []storage.WebhookEndpoint{f.endpoint}, nil
}

func (f *endpointStore) PauseEndpoint(_ context.Context, integratorID int64, u string) (storage.WebhookEndpoint, error) {
	if f.epErr != nil {
		return storage.WebhookEndpoint{}, f.epErr
	}
	f.calls = append(f.calls, fmt.Sprintf("pause %d %s", integratorID, u))
	return storage.WebhookEndpoint{IntegratorID: integratorID, URL: u, Status: storage.EndpointPaused}, nil
}

func (f *endpointStore) ResumeEndpoint(_ context.Context, integratorID int64, u string, msg func(storage.Postback) storage.OutboxMessage) (storage.WebhookEndpoint, int, error) {
	if f.epErr != nil {
		return storage.WebhookEndpoint{}, 0, f.epErr
	}
	m := msg(storage.Postback{ID: uuid.New()})
	f.calls = append(f.calls, fmt.Sprintf("resume %d %s %s", integratorID, u, m.Type))
	return storage.WebhookEndpoint{IntegratorID: integratorID, URL: u, Status: storage.EndpointActive}, 1, nil
}

func (f *endpointStore) RecordOperatorAction(_ context.Context, a storage.OperatorAction) (storage.OperatorAction, error) {
	a.ID = int64(len(f.actions) + 1)
	f.actions = append(f.actions, a)
	return a, nil
}

// fakeOps records the transfer decisions it is asked for, or fails.
type fakeOps struct {
	decisions []TransferDecision
	err       error
	breakers  map[string]map[providerclient.Lane]string
}

func (o *fakeOps) BreakerStates() map[string]map[providerclient.Lane]string { return o.breakers }

func (o *fakeOps) ResolveTransfer(_ context.Context, d TransferDecision) (storage.OperatorAction, storage.TransferStatus, error) {
	if o.err != nil {
		return storage.OperatorAction{}, "", o.err
	}
	o.decisions = append(o.decisions, d)
	return storage.OperatorAction{ID: 7, Operator: d.Operator, ResourceType: "withdrawal", ResourceID: d.ID}, storage.TransferCompleted, nil
}

// formCase is one post of an action's form, the refusals' shared columns.
type formCase struct {
	name               string
	operator, path     string
	form               url.Values
	cookie, site       string
	want               int
	storeErr, opsError error
}

// post sends tc's form, with the token's cookie unless told not to.
func post(t *testing.T, h http.Handler, tc formCase) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader(tc.form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if tc.cookie != "-" {
		r.AddCookie(&http.Cookie{Name: csrfCookie, Value: token})
	}
	if tc.site != "" {
		r.Header.Set("Sec-Fetch-Site", tc.site)
	}
	rw := httptest.NewRecorder()
	h.ServeHTTP(rw, r)
	if rw.Code != tc.want {
		t.Fatalf("status %d, want %d: %s", rw.Code, tc.want, rw.Body)
	}
	return rw
}

// with is form with key set to value ("" deletes it).
func with(form url.Values, key, value string) url.Values {
	out := url.Values{}
	for k, v := range form {
		out[k] = v
	}
	if value == "" {
		out.Del(key)
	} else {
		out.Set(key, value)
	}
	return out
}

// Each refusal of a transfer's settle and fail, and those accepted: the
// decision reaches the worker's ResolveTransfer only with the operator
// signed in, the form's token, a transfer, a decision and a reason, under
// the signed-in operator.
func TestTransferRefusals(t *testing.T) {
	id := uuid.New()
	form := url.Values{"csrf": {token}, "reason": {"the provider's statement of 03-01 shows it (ticket 4411)"}, "end_to_end_id": {"E123"}}
	settle := "/console/transfers/" + id.String() + "/settle"
	for _, tc := range []formCase{
		{name: "settle accepted", path: settle, want: http.StatusSeeOther},
		{name: "fail accepted", path: "/console/transfers/" + id.String() + "/fail", want: http.StatusSeeOther},
		{name: "no operator", operator: "-", path: settle, want: http.StatusUnauthorized},
		{name: "no token", cookie: "-", path: settle, want: http.StatusForbidden},
		{name: "token not the cookie's", path: settle, form: with(form, "csrf", strings.Repeat("f", 64)), want: http.StatusForbidden},
		{name: "from another site", site: "cross-site", path: settle, want: http.StatusForbidden},
		{name: "not a transfer", path: "/console/transfers/42/settle", want: http.StatusNotFound},
		{name: "not a decision", path: "/console/transfers/" + id.String() + "/refund", want: http.StatusNotFound},
		{name: "no reason", path: settle, form: with(form, "reason", "  "), want: http.StatusUnprocessableEntity},
		{name: "not found", path: settle, opsError: storage.ErrNotFound, want: http.StatusNotFound},
		{name: "moved on", path: settle, opsError: fmt.Errorf("%w: withdrawal is COMPLETED", ErrConflict), want: http.StatusConflict},
		{name: "failed", path: settle, opsError: context.DeadlineExceeded, want: http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := &fakeOps{err: tc.opsError}
			operator := map[bool]string{true: "ana", false: ""}[tc.operator != "-"]
			store := &fakeStore{endpointStore: endpointStore{flagged: storage.FlaggedTransfer{Kind: "withdrawal", ID: id}}}
			h := New(Config{Store: store, Ops: ops, Operator: func(*http.Request) string { return operator }})
			if tc.form == nil {
				tc.form = form
			}
			post(t, h, tc)
			accepted := tc.want == http.StatusSeeOther
			if accepted != (len(ops.decisions) == 1) {
				t.Fatalf("decisions %v, want accepted %v", ops.decisions, accepted)
			}
			want := TransferDecision{ID: id, Settle: strings.HasSuffix(tc.path, "/settle"), Operator: "ana", Reason: form.Get("reason"), EndToEndID: "E123"}
			if accepted && ops.decisions[0] != want {
				t.Fatalf("decision %+v, want %+v", ops.decisions[0], want)
			}
		})
	}
}

// Each refusal of an endpoint's pause and resume, and those accepted: the
// endpoint changes, and its operator action is recorded under the
// signed-in operator, only with a token, an endpoint and a reason; the
// resume queues its postbacks' deliveries.
func TestEndpointRefusals(t *testing.T) {
	u := "https://hooks.example.com/pix"
	form := url.Values{"csrf": {token}, "integrator": {"3"}, "url": {u}, "reason": {"the integrator's deploy (ticket 12)"}}
	for _, tc := range []formCase{
		{name: "pause accepted", path: "/console/endpoints/pause", want: http.StatusSeeOther},
		{name: "resume accepted", path: "/console/endpoints/resume", want: http.StatusSeeOther},
		{name: "no operator", operator: "-", path: "/console/endpoints/pause", want: http.StatusUnauthorized},
		{name: "no token", cookie: "-", path: "/console/endpoints/pause", want: http.StatusForbidden},
		{name: "from another site", site: "same-site", path: "/console/endpoints/pause", want: http.StatusForbidden},
		{name: "not a verb", path: "/console/endpoints/delete", want: http.StatusNotFound},
		{name: "no integrator", path: "/console/endpoints/pause", form: with(form, "integrator", ""), want: http.StatusBadRequest},
		{name: "not an integrator", path: "/console/endpoints/pause", form: with(form, "integrator", "-1"), want: http.StatusBadRequest},
		{name: "no url", path: "/console/endpoints/pause", form: with(form, "url", ""), want: http.StatusBadRequest},
		{name: "no reason", path: "/console/endpoints/resume", form: with(form, "reason", " "), want: http.StatusUnprocessableEntity},
		{name: "never paused", path: "/console/endpoints/resume", storeErr: fmt.Errorf("storage: resume endpoint: %w", storage.ErrNotFound), want: http.StatusConflict},
		{name: "failed", path: "/console/endpoints/pause", storeErr: context.DeadlineExceeded, want: http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			operator := map[bool]string{true: "ana", false: ""}[tc.operator != "-"]
			store := &fakeStore{endpointStore: endpointStore{endpoint: storage.WebhookEndpoint{IntegratorID: 3, URL: u, Status: storage.EndpointActive}, epErr: tc.storeErr}}
			h := New(Config{Store: store, Ops: &fakeOps{}, Operator: func(*http.Request) string { return operator }})
			if tc.form == nil {
				tc.form = form
			}
			post(t, h, tc)
			accepted := tc.want == http.StatusSeeOther
			if accepted != (len(store.calls) == 1 && len(store.actions) == 1) {
				t.Fatalf("calls %v, actions %v, want accepted %v", store.calls, store.actions, accepted)
			}
			if !accepted {
				return
			}
			verb := strings.TrimPrefix(tc.path, "/console/endpoints/")
			want := map[string]string{"pause": "pause 3 " + u, "resume": "resume 3 " + u + " postback:deliver"}[verb]
			a := store.actions[0]
			if store.calls[0] != want || a.Operator != "ana" || a.Action != "endpoint."+verb || a.Reason != form.Get("reason") ||
				a.ResourceID != storage.EndpointResourceID(3, u) {
				t.Fatalf("call %q (want %q), action %+v", store.calls[0], want, a)
			}
		})
	}
}

// The fake store's providers: a disabled record beside the default one,
// the default reconciled with a closing balance.
func (f *endpointStore) Providers(context.Context) ([]storage.Provider, error) {
	return []storage.Provider{{Name: "celcoin", Kind: "celcoin", Enabled: false}}, nil
}

func (f *endpointStore) FloatBalances(context.Context) (map[string]money.Money, error) {
	return map[string]money.Money{"default": 125000, "celcoin": 0}, nil
}

func (f *endpointStore) LastReconCloses(context.Context) (map[string]storage.ReconClose, error) {
	closing := money.Money(124000)
	return map[string]storage.ReconClose{"default": {Day: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Closing: &closing}}, nil
}

func (f *endpointStore) StoredRoute(context.Context, *int64) (storage.Route, bool, error) {
	return storage.Route{}, false, nil
}
