package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func chargeBatch(items ...string) string { return `{"charges":[` + strings.Join(items, ",") + `]}` }

// A batch creates each charge as a single create would, in order, each
// idempotent by its external_id: sent again, it creates nothing more.
func TestChargeBatchCreatesEachOnce(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Lote", money.Fixed(10), money.Fixed(50))
	var items []string
	for i := range 3 {
		items = append(items, validCharge(map[string]string{"external_id": fmt.Sprintf(`"lote-%d"`, i)}))
	}
	for round, want := range []string{"201", "200"} {
		r := e.call(http.MethodPost, "/api/v1/charges/batch", token, chargeBatch(items...)).expect(t, 200)
		data := r.data()
		if len(data) != 3 {
			t.Fatalf("round %d: %d items: %s", round, len(data), r.raw)
		}
		for i, it := range data {
			ch, _ := it["charge"].(map[string]any)
			if fmt.Sprint(it["index"]) != fmt.Sprint(i) || fmt.Sprint(it["status"]) != want || it["error"] != nil || ch["external_id"] != fmt.Sprintf("lote-%d", i) || ch["qrcode"] == nil {
				t.Fatalf("round %d item %d: %v", round, i, it)
			}
		}
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 3 {
		t.Fatalf("%d charges, want 3", n)
	}
}

// One invalid item refuses the batch, naming the item's field; nothing is
// created. So do an empty batch and one over the limit.
func TestChargeBatchValidatedWhole(t *testing.T) {
	e := newEnv(t)
	_, token := e.integrator("Loja Lote Ruim", money.Fixed(10), money.Fixed(50))
	many := make([]string, maxChargeBatch+1)
	for i := range many {
		many[i] = validCharge(map[string]string{"external_id": fmt.Sprintf(`"m-%d"`, i)})
	}
	for _, tt := range []struct{ name, body, field string }{
		{"a bad item", chargeBatch(validCharge(nil), validCharge(map[string]string{"external_id": `"b"`, "amount": "1.234"}), `7`), "charges[1].amount"},
		{"an item not an object", chargeBatch(validCharge(nil), `7`), "charges[1]"},
		{"no charges", `{}`, "charges"},
		{"empty", chargeBatch(), "charges"},
		{"too many", chargeBatch(many...), "charges"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.on(t).call(http.MethodPost, "/api/v1/charges/batch", token, tt.body).expectError(t, 422, codeValidation)
			if _, ok := r.fieldErrors()[tt.field]; !ok {
				t.Fatalf("errors does not name %q: %s", tt.field, r.raw)
			}
		})
	}
	if n := e.count(`SELECT count(*) FROM charges`); n != 0 {
		t.Fatalf("%d charges created", n)
	}
}
