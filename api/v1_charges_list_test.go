package api

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

func TestListCharges(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Lista", money.Percent(0), money.Fixed(0))
	_, otherToken := e.integrator("Loja Vizinha", money.Percent(0), money.Fixed(0))
	e.call(http.MethodPost, "/api/v1/charges", otherToken, validCharge(nil)).expect(t, 201)

	// Seven issued charges, then two the provider refused to issue.
	var ids []string
	for i := range 7 {
		r := e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"external_id": fmt.Sprintf(`"p-%d"`, i)})).expect(t, 201)
		ids = append(ids, r.str("id"))
	}
	e.sb.SetFaults(sandbox.Faults{Outage: true})
	for i := range 2 {
		e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{"external_id": fmt.Sprintf(`"f-%d"`, i)})).
			expectError(t, 503, codeProviderUnavailable)
	}
	e.sb.ResetFaults()

	// Pages of 3 over the PENDING ones: newest first, then null cursor.
	var seen []string
	cursor := ""
	for pageNo := 0; ; pageNo++ {
		path := "/api/v1/charges?status=PENDING&per_page=3"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		r := e.call(http.MethodGet, path, token, nil).expect(t, 200)
		if r.get("meta.per_page") != "3" {
			t.Fatalf("meta: %s", r.raw)
		}
		for _, item := range r.data() {
			if item["status"] != "PENDING" {
				t.Fatalf("status filter let through %v", item["status"])
			}
			seen = append(seen, item["id"].(string))
		}
		next, _ := r.get("meta.next_cursor").(string)
		if next == "" {
			if pageNo != 2 || len(r.data()) != 1 {
				t.Fatalf("last page %d has %d items", pageNo, len(r.data()))
			}
			break
		}
		cursor = next
	}
	for i, id := range seen {
		if want := ids[len(ids)-1-i]; id != want {
			t.Fatalf("item %d = %s, want %s (newest first)", i, id, want)
		}
	}

	failed := e.call(http.MethodGet, "/api/v1/charges?status=failed", token, nil).expect(t, 200)
	if len(failed.data()) != 2 || failed.get("meta.next_cursor") != nil || failed.get("meta.per_page") != "15" {
		t.Fatalf("FAILED filter: %s", failed.raw)
	}
	all := e.call(http.MethodGet, "/api/v1/charges", token, nil).expect(t, 200)
	if len(all.data()) != 9 {
		t.Fatalf("%d charges listed, want 9 (never another integrator's)", len(all.data()))
	}
	empty := e.call(http.MethodGet, "/api/v1/charges?status=PAID", token, nil).expect(t, 200)
	if empty.raw == "" || len(empty.data()) != 0 || string(mustJSON(empty.body["data"])) != "[]" {
		t.Fatalf("empty list: %s", empty.raw)
	}
}

func TestListChargesRefusesBadParameters(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Parametros", money.Percent(0), money.Fixed(0))
	for query, field := range map[string]string{
		"per_page=0":            "per_page",
		"per_page=101":          "per_page",
		"per_page=ten":          "per_page",
		"per_page=-5":           "per_page",
		"status=PAGO":           "status",
		"status=PROCESSING":     "status",
		"cursor=not-a-cursor!!": "cursor",
		"cursor=AAAA":           "cursor",
	} {
		r := e.call(http.MethodGet, "/api/v1/charges?"+query, token, nil).expectError(t, 422, codeValidation)
		if _, ok := r.fieldErrors()[field]; !ok {
			t.Errorf("%s: errors does not name %s: %s", query, field, r.raw)
		}
	}
	r := e.call(http.MethodGet, "/api/v1/charges?status=nope", token, nil)
	if got := fmt.Sprint(r.fieldErrors()["status"]); got != "[must be one of PENDING, PAID, EXPIRED, FAILED, REFUNDED]" {
		t.Fatalf("status error lists %s", got)
	}
}

// A list parameter PixGate does not read is refused, naming the ones it
// does: ?page=2 used to return the first page again, silently.
func TestListsRefuseUnknownParameters(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Paginas", money.Percent(0), money.Fixed(0))
	const reads = "is not a parameter of this list; it reads per_page, cursor, status"
	for _, list := range []string{"/api/v1/charges", "/api/v1/withdrawals"} {
		for query, field := range map[string]string{
			"page=2":                 "page",
			"per_page=5&page=2":      "page",
			"limit=10&offset=20":     "limit",
			"sk_live_abc=1":          "query", // never echoed: it may be a secret in the wrong place
			"Page=2":                 "query",
			"per_page=5&per-page=10": "query",
		} {
			r := e.call(http.MethodGet, list+"?"+query, token, nil).expectError(t, 422, codeValidation)
			if got := fmt.Sprint(r.fieldErrors()[field]); got != "["+reads+"]" {
				t.Errorf("%s?%s: errors[%s] = %s: %s", list, query, field, got, r.raw)
			}
		}
		// Every problem at once: a bad per_page beside an unknown parameter.
		r := e.call(http.MethodGet, list+"?per_page=0&page=2", token, nil).expectError(t, 422, codeValidation)
		if len(r.fieldErrors()) != 2 {
			t.Errorf("%s: want per_page and page named: %s", list, r.raw)
		}
		e.call(http.MethodGet, list+"?per_page=5&status=", token, nil).expect(t, 200)
	}
}
