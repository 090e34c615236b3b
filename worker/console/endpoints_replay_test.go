package console

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
)

// RedeliverEndpointPostbackRange records the replay it is asked for, or
// fails.
func (f *endpointStore) RedeliverEndpointPostbackRange(_ context.Context, integratorID int64, u string, since, until time.Time, most int,
	msg func(storage.Postback) storage.OutboxMessage) (int, error) {
	if f.epErr != nil {
		return 0, f.epErr
	}
	f.calls = append(f.calls, fmt.Sprintf("replay %d %s %s %s %d", integratorID, u, since.Format(time.RFC3339), until.Format(time.RFC3339), most))
	return 2, nil
}

// Each refusal of an endpoint's replay, and the one accepted: the
// endpoint's range is redelivered, and its operator action recorded
// under the signed-in operator with the range, only with a token, an
// endpoint, a reason and a range of at most 31 days; a range holding too
// many postbacks is refused with nothing recorded.
func TestEndpointReplayRefusals(t *testing.T) {
	u := "https://hooks.example.com/pix"
	path := "/console/endpoints/replay"
	form := url.Values{"csrf": {token}, "integrator": {"3"}, "url": {u}, "reason": {"the integrator lost a day of postbacks (ticket 31)"},
		"since": {"2026-03-01T00:00"}, "until": {"2026-03-02T12:30"}}
	for _, tc := range []formCase{
		{name: "accepted", path: path, want: http.StatusSeeOther},
		{name: "no operator", operator: "-", path: path, want: http.StatusUnauthorized},
		{name: "no token", cookie: "-", path: path, want: http.StatusForbidden},
		{name: "token not the cookie's", path: path, form: with(form, "csrf", strings.Repeat("f", 64)), want: http.StatusForbidden},
		{name: "from another site", site: "cross-site", path: path, want: http.StatusForbidden},
		{name: "no integrator", path: path, form: with(form, "integrator", ""), want: http.StatusBadRequest},
		{name: "no url", path: path, form: with(form, "url", ""), want: http.StatusBadRequest},
		{name: "no reason", path: path, form: with(form, "reason", "  "), want: http.StatusUnprocessableEntity},
		{name: "no since", path: path, form: with(form, "since", ""), want: http.StatusUnprocessableEntity},
		{name: "until not a time", path: path, form: with(form, "until", "tomorrow"), want: http.StatusUnprocessableEntity},
		{name: "until before since", path: path, form: with(form, "until", "2026-02-28T00:00"), want: http.StatusUnprocessableEntity},
		{name: "empty range", path: path, form: with(form, "until", "2026-03-01T00:00"), want: http.StatusUnprocessableEntity},
		{name: "range too long", path: path, form: with(form, "until", "2026-04-01T00:01"), want: http.StatusUnprocessableEntity},
		{name: "too many postbacks", path: path, storeErr: storage.ErrTooManyPostbacks, want: http.StatusUnprocessableEntity},
		{name: "failed", path: path, storeErr: context.DeadlineExceeded, want: http.StatusInternalServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			operator := map[bool]string{true: "ana", false: ""}[tc.operator != "-"]
			store := &fakeStore{endpointStore: endpointStore{endpoint: storage.WebhookEndpoint{IntegratorID: 3, URL: u, Status: storage.EndpointActive}, epErr: tc.storeErr}}
			h := New(Config{Store: store, Ops: &fakeOps{}, Operator: func(*http.Request) string { return operator }})
			if tc.form == nil {
				tc.form = form
			}
			rw := post(t, h, tc)
			accepted := tc.want == http.StatusSeeOther
			if accepted != (len(store.calls) == 1 && len(store.actions) == 1) {
				t.Fatalf("calls %v, actions %v, want accepted %v", store.calls, store.actions, accepted)
			}
			if !accepted {
				if tc.want == http.StatusUnprocessableEntity && !strings.Contains(rw.Body.String(), form.Get("reason")) && tc.name != "no reason" {
					t.Fatalf("the refused form's reason is not kept: %s", rw.Body)
				}
				return
			}
			if want := "replay 3 " + u + " 2026-03-01T00:00:00Z 2026-03-02T12:30:00Z 10000"; store.calls[0] != want {
				t.Fatalf("call %q, want %q", store.calls[0], want)
			}
			a := store.actions[0]
			if a.Operator != "ana" || a.Action != "endpoint.replay" || a.ResourceID != storage.EndpointResourceID(3, u) ||
				a.Reason != form.Get("reason")+" (postbacks created from 2026-03-01T00:00:00Z until 2026-03-02T12:30:00Z)" {
				t.Fatalf("action %+v", a)
			}
			if loc := rw.Header().Get("Location"); !strings.Contains(loc, "2+postbacks+queued+again") {
				t.Fatalf("redirect %q", loc)
			}
		})
	}
}
