package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money/due"
)

// day is the day n days from today in Brasília, as a request writes it.
func day(n int) string { return due.Today(time.Now()).AddDays(n).String() }

// validRecurrence is a weekly fixed recurrence of the QR journey that
// passes validation.
func validRecurrence(externalID string) map[string]any {
	return map[string]any{
		"external_id": externalID, "journey": "QR", "periodicity": "WEEKLY", "start": day(7), "count": 4,
		"amount": json.Number("35.00"), "retryPolicy": "THREE_IN_7_DAYS",
		"payer":    map[string]any{"name": "Fulano de Tal", "document": "529.982.247-25", "email": "f@example.com"},
		"contract": "plano-ouro-4417", "description": "Plano Ouro", "postbackUrl": "https://shop.example/pix",
	}
}

// pushRecurrence is a variable monthly recurrence of the PUSH journey,
// with a floor.
func pushRecurrence(externalID string) map[string]any {
	return map[string]any{
		"external_id": externalID, "journey": "PUSH", "periodicity": "MONTHLY", "start": day(3), "end": day(400),
		"minimumAmount": json.Number("10.00"),
		"payer": map[string]any{"name": "Beltrano", "document": "11.222.333/0001-81",
			"bank": map[string]any{"ispb": "91193552", "branch": "2569", "account": "550689"}},
	}
}

// createRecurrence creates body's recurrence and returns its id.
func (e *env) createRecurrence(body map[string]any) string {
	e.t.Helper()
	status, got := e.post(contract.PathRecurrence, body)
	if status != http.StatusOK {
		e.t.Fatalf("create: %d %v", status, got)
	}
	return got["transactionId"].(string)
}

// A QR recurrence is CREATED with a dynamic BR Code whose location is the
// recurrence's; consult-transaction reads it with its terms, normalized.
func TestRecurrenceCreateQR(t *testing.T) {
	e := newEnv(t, Config{})
	status, body := e.post(contract.PathRecurrence, validRecurrence("rec-1"))
	id, _ := body["transactionId"].(string)
	if status != http.StatusOK || !transactionIDPattern.MatchString(id) || body["external_id"] != "rec-1" || body["status"] != "CREATED" {
		t.Fatalf("create: %d %v", status, body)
	}
	p, err := brcodetest.Parse(body["qrcode"].(string))
	if err != nil || p.Location != DefaultPublicHost+"/qr/v2/rec/"+id || p.Amount != 0 || !p.Dynamic() {
		t.Fatalf("BR Code %+v, %v", p, err)
	}
	_, read := e.post("/v2/consult-transaction", map[string]any{"pix_id": id})
	rb := read["requestBody"].(map[string]any)
	payer := rb["payer"].(map[string]any)
	if rb["transactionType"] != contract.TypeRecurrence || rb["status"] != "CREATED" || rb["qrcode"] != body["qrcode"] ||
		rb["journey"] != "QR" || rb["periodicity"] != "WEEKLY" || rb["start"] != day(7) || num(rb["count"]) != "4" ||
		num(rb["amount"]) != "35.00" || rb["retryPolicy"] != "THREE_IN_7_DAYS" || rb["contract"] != "plano-ouro-4417" ||
		payer["document"] != "52998224725" || rb["description"] != "Plano Ouro" || !datePattern.MatchString(rb["dateCreated"].(string)) {
		t.Fatalf("consult: %v", rb)
	}
	// The consent waits 30 days when the request names no deadline.
	deadline := contract.ParseDate(rb["consentExpiresAt"].(string))
	if d := time.Until(deadline); d < 29*24*time.Hour || d > 30*24*time.Hour {
		t.Fatalf("consent deadline %s", rb["consentExpiresAt"])
	}
	if got := e.sb.Transactions(""); len(got) != 0 {
		t.Fatalf("a recurrence is in the ledger: %+v", got)
	}
}

// A PUSH recurrence needs the payer's account and has no BR Code.
func TestRecurrenceCreatePush(t *testing.T) {
	e := newEnv(t, Config{})
	body := pushRecurrence("rec-push")
	delete(body["payer"].(map[string]any), "bank")
	if status, got := e.post(contract.PathRecurrence, body); status != http.StatusUnprocessableEntity || !hasFieldError(got, "payer.bank") {
		t.Fatalf("push without the account: %d %v", status, got)
	}
	status, got := e.post(contract.PathRecurrence, pushRecurrence("rec-push"))
	if status != http.StatusOK || got["status"] != "CREATED" || got["qrcode"] != nil {
		t.Fatalf("push: %d %v", status, got)
	}
	rec, err := e.sb.Recurrence(got["transactionId"].(string))
	if err != nil || rec.Payer.Bank == nil || rec.Payer.Bank.ISPB != "91193552" || rec.Payer.Document != "11222333000181" ||
		rec.MinimumAmount != 1000 || rec.Amount != 0 || rec.End != day(400) || rec.RetryPolicy != "NONE" {
		t.Fatalf("push read: %+v, %v", rec, err)
	}
}

// A repeated external_id answers the recurrence created the first time,
// whatever the repeat says, and creates nothing.
func TestRecurrenceReplay(t *testing.T) {
	e := newEnv(t, Config{})
	first := e.createRecurrence(validRecurrence("rec-1"))
	again := validRecurrence("rec-1")
	again["start"] = day(-3) // no longer valid: the first request still wins
	status, got := e.post(contract.PathRecurrence, again)
	if status != http.StatusOK || got["transactionId"] != first {
		t.Fatalf("replay: %d %v, want %s", status, got, first)
	}
	if _, err := e.sb.ApproveRecurrence(first, 0); err != nil {
		t.Fatal(err)
	}
	if _, got := e.post(contract.PathRecurrence, validRecurrence("rec-1")); got["status"] != "APPROVED" {
		t.Fatalf("replay after the approval: %v", got)
	}
	if n := len(e.sb.Transactions(contract.TypeRecurrence)); n != 1 {
		t.Fatalf("%d recurrences, want 1", n)
	}
}

// Each refusal names its field in the family's names.
func TestRecurrenceRefusals(t *testing.T) {
	e := newEnv(t, Config{})
	cases := map[string]struct {
		edit  func(map[string]any)
		field string
	}{
		"no external_id":       {func(b map[string]any) { delete(b, "external_id") }, "external_id"},
		"a journey not served": {func(b map[string]any) { b["journey"] = "QR_WITH_DUE_PAYMENT" }, "journey"},
		"an unknown journey":   {func(b map[string]any) { b["journey"] = "JORNADA_2" }, "journey"},
		"a daily periodicity":  {func(b map[string]any) { b["periodicity"] = "DAILY" }, "periodicity"},
		"no start":             {func(b map[string]any) { delete(b, "start") }, "start"},
		"a start not a day":    {func(b map[string]any) { b["start"] = "10/03/2026" }, "start"},
		"a start past":         {func(b map[string]any) { b["start"] = day(-1) }, "start"},
		"an end before start":  {func(b map[string]any) { delete(b, "count"); b["end"] = day(6) }, "end"},
		"an end and a count":   {func(b map[string]any) { b["end"] = day(60) }, "count"},
		"too many cycles":      {func(b map[string]any) { b["count"] = 521 }, "count"},
		"a count not a number": {func(b map[string]any) { b["count"] = "4" }, "count"},
		"an amount and a floor": {func(b map[string]any) { b["minimumAmount"] = json.Number("1.00") },
			"minimumAmount"},
		"an amount of 3 decimals": {func(b map[string]any) { b["amount"] = json.Number("1.005") }, "amount"},
		"a zero amount":           {func(b map[string]any) { b["amount"] = 0 }, "amount"},
		"an unknown policy":       {func(b map[string]any) { b["retryPolicy"] = "PERMITE_3R_7D" }, "retryPolicy"},
		"no payer name":           {func(b map[string]any) { delete(b["payer"].(map[string]any), "name") }, "payer.name"},
		"a bad document":          {func(b map[string]any) { b["payer"].(map[string]any)["document"] = "123" }, "payer.document"},
		"a bad email":             {func(b map[string]any) { b["payer"].(map[string]any)["email"] = "fulano" }, "payer.email"},
		"a bad ISPB": {func(b map[string]any) {
			b["payer"].(map[string]any)["bank"] = map[string]any{"ispb": "1234", "account": "1"}
		}, "payer.bank.ispb"},
		"a long branch": {func(b map[string]any) {
			b["payer"].(map[string]any)["bank"] = map[string]any{"ispb": "91193552", "branch": "12345", "account": "1"}
		}, "payer.bank.branch"},
		"no account": {func(b map[string]any) {
			b["payer"].(map[string]any)["bank"] = map[string]any{"ispb": "91193552"}
		}, "payer.bank.account"},
		"a long contract":           {func(b map[string]any) { b["contract"] = strings.Repeat("c", 36) }, "contract"},
		"a long description":        {func(b map[string]any) { b["description"] = strings.Repeat("d", 36) }, "description"},
		"a deadline not a date":     {func(b map[string]any) { b["consentExpiresAt"] = "amanhã" }, "consentExpiresAt"},
		"a deadline past":           {func(b map[string]any) { b["consentExpiresAt"] = "2020-01-01 10:00:00" }, "consentExpiresAt"},
		"a deadline after 30 days":  {func(b map[string]any) { b["consentExpiresAt"] = contract.FormatDate(time.Now().AddDate(0, 0, 31)) }, "consentExpiresAt"},
		"a postbackUrl not an http": {func(b map[string]any) { b["postbackUrl"] = "ftp://shop.example" }, "postbackUrl"},
	}
	for name, c := range cases {
		body := validRecurrence("rec-refused")
		c.edit(body)
		if status, got := e.post(contract.PathRecurrence, body); status != http.StatusUnprocessableEntity || !hasFieldError(got, c.field) {
			t.Errorf("%s: %d %v, want 422 on %s", name, status, got, c.field)
		}
	}
	if n := len(e.sb.Transactions(contract.TypeRecurrence)); n != 0 {
		t.Fatalf("refusals created %d recurrences", n)
	}
	if status, _ := e.call(contract.PathRecurrence, "", validRecurrence("rec-1"), nil); status != http.StatusUnauthorized {
		t.Fatalf("without a token: %d", status)
	}
}

// hasFieldError reports whether a 422's errors name field.
func hasFieldError(body map[string]any, field string) bool {
	errs, _ := body["errors"].(map[string]any)
	_, ok := errs[field]
	return ok
}
