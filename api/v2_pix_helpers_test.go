package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
)

// v2 posts body to a /v2 route with an access token.
func (e *env) v2(path, token string, body any) reply {
	e.t.Helper()
	return e.call(http.MethodPost, path, token, body)
}

// markPaid records the charge of pixID as paid, as the worker does once the
// provider confirms it.
func (e *env) markPaid(integratorID int64, pixID string) storage.Charge {
	e.t.Helper()
	ctx := context.Background()
	tx, err := e.db.TransactionByPixID(ctx, integratorID, pixID)
	if err != nil || tx.Charge == nil {
		e.t.Fatalf("charge %s: %v", pixID, err)
	}
	var c storage.Charge
	err = e.db.InTx(ctx, func(t *storage.Tx) (err error) {
		c, _, err = t.MarkChargePaid(ctx, tx.Charge.ID, storage.Settlement{PixID: pixID, At: time.Now()})
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// familyCharge is a qrcode body as the provider family's clients send it.
func familyCharge(externalID string, amount string) string {
	return `{"amount": ` + amount + `, "external_id": "` + externalID + `", "postbackUrl": "https://shop.example/pix/hook",
		"payerQuestion": "Pedido ` + externalID + `",
		"payer": {"name": "Fulano de Tal", "document": "529.982.247-25", "email": "fulano@example.com"}}`
}

// noNull fails when an answer carries a null: the family's parsers refuse
// null where they expect a value.
func (r reply) noNull(t *testing.T) reply {
	t.Helper()
	if strings.Contains(r.raw, "null") {
		t.Fatalf("answer carries null: %s", r.raw)
	}
	return r
}

// newReadOnlyKey describes a key that may only look transactions up.
func newReadOnlyKey(integratorID int64) storage.NewKey {
	return storage.NewKey{IntegratorID: integratorID, Scopes: []string{storage.ScopeTransactionsRead}}
}
