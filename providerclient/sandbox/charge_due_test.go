package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// dueCharge is a family charge body of R$ 150.00 due tomorrow, edited by
// edit.
func dueCharge(edit func(map[string]any)) map[string]any {
	b := map[string]any{"amount": 150, "external_id": "due-1",
		"payer": map[string]any{"name": "Fulano de Tal", "document": "529.982.247-25"},
		"due": map[string]any{"date": due.Today(time.Now()).AddDays(1).String(), "days_after": 5,
			"fine": map[string]any{"mode": "percent", "value": 2}}}
	if edit != nil {
		edit(b)
	}
	return b
}

// PixGate's extension of the family charge: with due, a due-date charge,
// its amount the original, its calendar's dueDate the last day it can be
// paid, its BR Code a cobv location with no amount; consulted once paid,
// its amount is what was paid on the day.
func TestFamilyDueCharge(t *testing.T) {
	e := newEnv(t, Config{})
	status, ch := e.post("/v2/pix/qrcode", dueCharge(nil))
	if status != 200 || ch["status"] != "PENDING" || num(ch["amount"]) != "150.00" {
		t.Fatalf("charge: %d %v", status, ch)
	}
	terms := due.Terms{Original: money.FromReais(150, 0), Date: due.Today(time.Now()).AddDays(1), DaysAfter: 5,
		Fine: &due.Fine{Mode: due.FinePercent, Value: 200}}
	last := contract.FormatDate(terms.LastDay().End())
	if cal := ch["calendar"].(map[string]any); cal["dueDate"] != last {
		t.Fatalf("calendar %v, want dueDate %s", cal, last)
	}
	code, err := brcodetest.Parse(ch["qrcode"].(string))
	if err != nil || code.Amount != 0 || !strings.Contains(code.Location, "/qr/v2/cobv/") {
		t.Fatalf("BR Code %+v, %v", code, err)
	}
	id := ch["transactionId"].(string)
	if _, again := e.post("/v2/pix/qrcode", dueCharge(nil)); again["transactionId"] != id {
		t.Fatalf("repeated external_id: %v", again)
	}

	want, err := terms.AmountOn(terms.Date)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayChargeAt(id, Payer{}, terms.Date.End().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, got := e.post("/v2/consult-transaction", map[string]any{"pix_id": id})
	tx := got["requestBody"].(map[string]any)
	if tx["status"] != "PAID" || num(tx["amount"]) != want.Total.String() {
		t.Fatalf("consult: %v; want %s paid", tx, want.Total)
	}
}

// The due member is checked field by field, named below "due", and a
// due-date charge names its payer with a document.
func TestFamilyDueChargeRefusals(t *testing.T) {
	e := newEnv(t, Config{})
	yesterday := due.Today(time.Now()).AddDays(-1).String()
	for name, c := range map[string]struct {
		edit  func(map[string]any)
		field string
	}{
		"no payer":            {func(b map[string]any) { delete(b, "payer") }, "payer.document"},
		"no document":         {func(b map[string]any) { b["payer"] = map[string]any{"name": "Fulano"} }, "payer.document"},
		"no due date":         {func(b map[string]any) { delete(b["due"].(map[string]any), "date") }, "due.date"},
		"a passed date":       {func(b map[string]any) { b["due"].(map[string]any)["date"] = yesterday }, "due.date"},
		"a date that is not":  {func(b map[string]any) { b["due"].(map[string]any)["date"] = "2026-02-30" }, "due.date"},
		"a fine that is text": {func(b map[string]any) { b["due"].(map[string]any)["fine"] = "2%" }, "due.fine"},
		"days as text":        {func(b map[string]any) { b["due"].(map[string]any)["days_after"] = "5" }, "due.days_after"},
	} {
		status, body := e.post("/v2/pix/qrcode", dueCharge(c.edit))
		errs, _ := body["errors"].(map[string]any)
		if status != 422 || errs[c.field] == nil {
			t.Errorf("%s: %d %v, want 422 naming %s", name, status, body, c.field)
		}
	}
	if n := e.sb.Stats().ChargesCreated; n != 0 {
		t.Fatalf("%d charges created by refused requests", n)
	}
	if status, _ := e.post("/v2/pix/qrcode", dueCharge(func(b map[string]any) { b["due"] = json.RawMessage("null") })); status != 200 {
		t.Fatalf("a null due is an immediate charge: %d", status)
	}
}
