package console

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// The reconciliation pages: the days (open exceptions first), a day's
// items, and an exception resolved with a reason, as pixgate reconcile
// resolve does (docs/reconciliation.md).

var funcs = template.FuncMap{
	// opt prints an optional value, a dash when there is none.
	"opt": func(v any) string {
		if rv := reflect.ValueOf(v); !rv.IsValid() || rv.Kind() == reflect.Pointer && rv.IsNil() {
			return "—"
		}
		switch v := v.(type) {
		case *string:
			return *v
		case *time.Time:
			return v.UTC().Format("2006-01-02 15:04:05Z")
		case fmt.Stringer:
			return v.String()
		}
		return fmt.Sprint(v)
	},
	"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") },
	"path": url.PathEscape,
	"key":  endpointKey,
	"rid":  storage.EndpointResourceID,
}

func (c *console) reconDays(rw http.ResponseWriter, r *http.Request) {
	days, err := c.cfg.Store.ReconciliationDays(r.Context(), daysListed)
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	c.render(rw, r, http.StatusOK, "reconciliation.html", view{Section: "reconciliation", Data: days})
}

// dayView is a day's page: its items, exceptions first, and what each
// resolved one's audit record says.
type dayView struct {
	Provider, Day     string
	Open, Closed      []storage.ReconItem
	Actions           map[uuid.UUID][]storage.OperatorAction
	Reason            string // a refused form's, so it is not typed again
	PostAdjustmentFor uuid.UUID
}

// dayOf reads the path's provider and day; a day that is not one is
// refused before any query.
func dayOf(r *http.Request) (provider, day string, ok bool) {
	provider, day = r.PathValue("provider"), r.PathValue("day")
	if _, err := providerclient.ParseDay(day); err != nil || provider == "" {
		return "", "", false
	}
	return provider, day, true
}

func (c *console) reconDay(rw http.ResponseWriter, r *http.Request) {
	v := view{Section: "reconciliation", Notice: r.URL.Query().Get("resolved")}
	if v.Notice != "" {
		v.Notice = "Exception " + v.Notice + " resolved and recorded in the operator actions."
	}
	c.showDay(rw, r, http.StatusOK, v, dayView{})
}

// showDay renders a day's page with v's message; d carries a refused
// form's values.
func (c *console) showDay(rw http.ResponseWriter, r *http.Request, status int, v view, d dayView) {
	provider, day, ok := dayOf(r)
	if !ok {
		http.Error(rw, "not a provider's day (YYYY-MM-DD)", http.StatusNotFound)
		return
	}
	d.Provider, d.Day, d.Actions = provider, day, map[uuid.UUID][]storage.OperatorAction{}
	err := c.cfg.Store.ReconciliationItems(r.Context(), provider, day, func(it storage.ReconItem) error {
		switch {
		case it.Status == storage.ReconOpen:
			d.Open = append(d.Open, it)
		case it.ResolvedAt != nil:
			d.Closed = append(d.Closed, it)
		}
		return nil
	})
	for _, it := range d.Closed {
		if err != nil {
			break
		}
		d.Actions[it.ID], err = c.cfg.Store.OperatorActions(r.Context(), it.ID)
	}
	if err != nil {
		c.fail(rw, r, err)
		return
	}
	v.Data = d
	c.render(rw, r, status, "reconciliation_day.html", v)
}

// reconResolve closes an exception through storage.ResolveReconciliationItem:
// the item, the operator action (the signed-in operator, the reason) and,
// when asked, the adjustment's posting, in one transaction.
func (c *console) reconResolve(rw http.ResponseWriter, r *http.Request) {
	if !csrfValid(r) {
		http.Error(rw, "the form's token is missing or stale: reload the page and submit again", http.StatusForbidden)
		return
	}
	if _, _, ok := dayOf(r); !ok {
		http.Error(rw, "not a provider's day (YYYY-MM-DD)", http.StatusNotFound)
		return
	}
	reason, post := strings.TrimSpace(r.PostFormValue("reason")), r.PostFormValue("post_adjustment") == "on"
	id, err := uuid.Parse(r.PostFormValue("item"))
	refuse := func(status int, msg string) {
		c.showDay(rw, r, status, view{Section: "reconciliation", Error: msg}, dayView{Reason: reason, PostAdjustmentFor: id})
	}
	switch {
	case err != nil:
		refuse(http.StatusBadRequest, "the form names no exception")
		return
	case reason == "":
		refuse(http.StatusUnprocessableEntity, "A reason is required: say what was found and decided (it is kept in the audit trail).")
		return
	}
	it, err := c.cfg.Store.ResolveReconciliationItem(r.Context(), id,
		storage.ReconResolution{Operator: c.cfg.Operator(r), Reason: reason, PostAdjustment: post})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		refuse(http.StatusNotFound, "exception "+id.String()+" not found")
		return
	case errors.Is(err, storage.ErrReconNotOpen):
		refuse(http.StatusConflict, "exception "+id.String()+" is not open any more (resolved by someone else?)")
		return
	case errors.Is(err, storage.ErrReconNothingToPost):
		refuse(http.StatusConflict, "exception "+id.String()+": nothing to post (it moves no money PixGate has not booked); resolve it without the adjustment")
		return
	case err != nil:
		c.fail(rw, r, err)
		return
	}
	c.cfg.Log.Info("reconciliation exception resolved from the console", "item", it.ID, "provider", it.Provider, "day", it.Day,
		"operator", c.cfg.Operator(r), "adjustment", it.AdjustmentID != nil)
	http.Redirect(rw, r, "/console/reconciliation/"+url.PathEscape(it.Provider)+"/"+it.Day+"?resolved="+it.ID.String(), http.StatusSeeOther)
}
