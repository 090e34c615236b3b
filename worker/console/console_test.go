package console

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// fakeStore holds one open exception; resolving it records the call.
// Its endpoint actions are endpoints.go's (console_actions_test.go), its
// MED reads infractions.go's (infractions_test.go).
type fakeStore struct {
	item     storage.ReconItem
	resolved []storage.ReconResolution
	err      error
	endpointStore
	medStore
}

func (f *fakeStore) ReconciliationDays(context.Context, int) ([]storage.ReconRun, error) {
	return []storage.ReconRun{{Provider: f.item.Provider, Day: f.item.Day, OpenExceptions: 1}}, nil
}

func (f *fakeStore) ReconciliationItems(_ context.Context, _, _ string, each func(storage.ReconItem) error) error {
	return each(f.item)
}

func (f *fakeStore) ResolveReconciliationItem(_ context.Context, id uuid.UUID, r storage.ReconResolution) (storage.ReconItem, error) {
	if f.err != nil {
		return storage.ReconItem{}, f.err
	}
	f.resolved = append(f.resolved, r)
	return f.item, nil
}

func (f *fakeStore) OperatorActions(context.Context, uuid.UUID) ([]storage.OperatorAction, error) {
	return nil, nil
}

const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// Each refusal of the resolve form, and the one it accepts: the action is
// taken only with the operator signed in, the form's token, an exception
// and a reason, and the signed-in operator is who it is recorded under.
func TestResolveRefusals(t *testing.T) {
	id := uuid.New()
	path := "/console/reconciliation/default/2026-03-01/resolve"
	for _, tc := range []struct {
		name                 string
		operator, path, form string
		cookie, site         string
		storeErr             error
		want                 int
	}{
		{name: "accepted", want: http.StatusSeeOther},
		{name: "no operator", operator: "-", want: http.StatusUnauthorized},
		{name: "no token", cookie: "-", want: http.StatusForbidden},
		{name: "token not the cookie's", form: "csrf=" + strings.Repeat("f", 64) + "&item=" + id.String() + "&reason=x", want: http.StatusForbidden},
		{name: "from another site", site: "cross-site", want: http.StatusForbidden},
		{name: "not a day", path: "/console/reconciliation/default/yesterday/resolve", want: http.StatusNotFound},
		{name: "no exception", form: "csrf=" + token + "&reason=x", want: http.StatusBadRequest},
		{name: "no reason", form: "csrf=" + token + "&item=" + id.String() + "&reason=++", want: http.StatusUnprocessableEntity},
		{name: "not found", storeErr: storage.ErrNotFound, want: http.StatusNotFound},
		{name: "not open", storeErr: storage.ErrReconNotOpen, want: http.StatusConflict},
		{name: "nothing to post", storeErr: storage.ErrReconNothingToPost, want: http.StatusConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &fakeStore{item: storage.ReconItem{ID: id, Provider: "default", Day: "2026-03-01", Status: storage.ReconOpen,
				Kind: storage.ReconMissingInPixGate}, err: tc.storeErr}
			operator := map[bool]string{true: "ana", false: ""}[tc.operator != "-"]
			h := New(Config{Store: store, Operator: func(*http.Request) string { return operator }})
			form := tc.form
			if form == "" {
				form = url.Values{"csrf": {token}, "item": {id.String()}, "reason": {"listed twice"}, "post_adjustment": {"on"}}.Encode()
			}
			p := tc.path
			if p == "" {
				p = path
			}
			values, err := url.ParseQuery(form)
			if err != nil {
				t.Fatal(err)
			}
			post(t, h, formCase{path: p, form: values, cookie: tc.cookie, site: tc.site, want: tc.want})
			accepted := tc.want == http.StatusSeeOther
			if accepted != (len(store.resolved) == 1) {
				t.Fatalf("resolved %v, want accepted %v", store.resolved, accepted)
			}
			if accepted && (store.resolved[0] != storage.ReconResolution{Operator: "ana", Reason: "listed twice", PostAdjustment: true}) {
				t.Fatalf("resolution %+v", store.resolved[0])
			}
		})
	}
}

// Pages carry the headers that keep money figures out of frames and
// caches, and a page sets the form token's cookie.
func TestPagesHeadersAndToken(t *testing.T) {
	id := uuid.New()
	h := New(Config{Store: &fakeStore{item: storage.ReconItem{ID: uuid.New(), Provider: "default", Day: "2026-03-01", Status: storage.ReconOpen},
		endpointStore: endpointStore{flagged: storage.FlaggedTransfer{Kind: "withdrawal", ID: id},
			endpoint: storage.WebhookEndpoint{IntegratorID: 3, URL: "https://hooks.example.com/pix", Status: storage.EndpointPaused}}},
		Operator: func(*http.Request) string { return "ana" }})
	for p, want := range map[string]string{
		"/console/reconciliation":                    "default",
		"/console/reconciliation/default/2026-03-01": "default",
		"/console/providers":                         "1240.00",
		"/console/transfers":                         id.String(),
		"/console/endpoints":                         "https://hooks.example.com/pix",
		"/console/infractions":                       "none-open",
	} {
		rw := httptest.NewRecorder()
		h.ServeHTTP(rw, httptest.NewRequest(http.MethodGet, p, nil))
		if rw.Code != http.StatusOK || rw.Header().Get("X-Frame-Options") != "DENY" || rw.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("%s: %d %v", p, rw.Code, rw.Header())
		}
		if !strings.Contains(rw.Header().Get("Set-Cookie"), csrfCookie) || !strings.Contains(rw.Body.String(), want) {
			t.Fatalf("%s: no token cookie or no content: %v %s", p, rw.Header(), rw.Body)
		}
	}
}
