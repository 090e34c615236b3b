package console

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// medStore is the fake store's MED reads: the infractions and debts it
// holds, or its error.
type medStore struct {
	open   []storage.OpenMED
	debts  []storage.IntegratorDebt
	medErr error
}

func (f *medStore) OpenInfractions(context.Context, int) ([]storage.OpenMED, error) {
	return f.open, f.medErr
}

func (f *medStore) IntegratorDebts(context.Context, int) ([]storage.IntegratorDebt, error) {
	return f.debts, f.medErr
}

// The infractions page lists each open infraction (overdue ones marked)
// and each debt with their totals, says so when there are none, and
// refuses a request with no operator; a failed read is an internal error
// that does not show its cause.
func TestInfractionsPage(t *testing.T) {
	past, future := time.Now().Add(-time.Hour), time.Now().Add(48*time.Hour)
	overdue, later := uuid.New(), uuid.New()
	full := medStore{
		open: []storage.OpenMED{
			{Integrator: "Loja", Infraction: storage.Infraction{ID: overdue, IntegratorID: 3, Amount: 10000, Blocked: 9850, DueAt: &past}},
			{Integrator: "Feira", Infraction: storage.Infraction{ID: later, IntegratorID: 4, Amount: 2000, Blocked: 2000, DueAt: &future}},
		},
		debts: []storage.IntegratorDebt{{IntegratorID: 5, Integrator: "Banca", Debt: 7000}},
	}
	for _, tc := range []struct {
		name     string
		operator string
		store    medStore
		want     int
		has, not []string
	}{
		{name: "listed", operator: "ana", store: full, want: http.StatusOK,
			has: []string{`id="infraction-` + overdue.String() + `" class="open"`, `id="infraction-` + later.String() + `">`, "Loja", "Feira",
				`id="blocked-total">118.50`, "1.50", `id="debt-5"`, "70.00", "1 owing"}},
		{name: "none", operator: "ana", want: http.StatusOK, has: []string{`id="none-open"`, `id="no-debts"`}},
		{name: "no operator", want: http.StatusUnauthorized, not: []string{"Loja"}},
		{name: "store fails", operator: "ana", store: medStore{medErr: errors.New("dial tcp 10.0.0.7:5432")}, want: http.StatusInternalServerError,
			not: []string{"10.0.0.7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &fakeStore{medStore: tc.store}
			h := New(Config{Store: store, Operator: func(*http.Request) string { return tc.operator }})
			rw := httptest.NewRecorder()
			h.ServeHTTP(rw, httptest.NewRequest(http.MethodGet, "/console/infractions", nil))
			body := rw.Body.String()
			if rw.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", rw.Code, tc.want, body)
			}
			for _, s := range tc.has {
				if !strings.Contains(body, s) {
					t.Errorf("the page lacks %q: %s", s, body)
				}
			}
			for _, s := range tc.not {
				if strings.Contains(body, s) {
					t.Errorf("the page shows %q: %s", s, body)
				}
			}
		})
	}
}
