package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cobrBody is a valid PUT /v2/cobr body for the cycle of recurrence idRec
// due in 5 days, edited by edit.
func cobrBody(idRec string, edit func(map[string]any)) map[string]any {
	b := map[string]any{
		"idRec": idRec, "calendario": map[string]any{"dataDeVencimento": day(5)}, "valor": map[string]any{"original": "35.00"},
		"ajusteDiaUtil": true, "recebedor": map[string]any{"agencia": DefaultAccountBranch, "conta": DefaultAccountNumber, "tipoConta": "CORRENTE"},
	}
	if edit != nil {
		edit(b)
	}
	return b
}

// The face refuses a cycle charge as the BCB's CobROperacaoInvalida, each
// violation naming its property; the same PUT again answers the charge
// registered, the txid with other terms is refused.
func TestEfiCobRRefusals(t *testing.T) {
	e := newEfiEnv(t)
	idRec := cycleRec(t, e.sb, money.FromReais(35, 0), 0, recurrence.RetryThreeInSeven)
	cob := strings.Repeat("c", 32)
	cobBody := `{"calendario":{"expiracao":3600},"valor":{"original":"15.50"},"chave":"` + DefaultPixKey + `"}`
	if status, _ := e.put("/v2/cob/"+cob, cobBody); status != http.StatusCreated {
		t.Fatalf("a cob: %d", status)
	}
	txid := strings.Repeat("a", 32)
	for name, c := range map[string]struct {
		txid string
		edit func(map[string]any)
		prop string
	}{
		"a short txid":         {"short", nil, "cobr.txid"},
		"a cob's txid":         {cob, nil, "cobr.txid"},
		"a day that is none":   {txid, func(b map[string]any) { b["calendario"] = map[string]any{"dataDeVencimento": "2026-13-01"} }, "cobr.calendario"},
		"an amount of 3":       {txid, func(b map[string]any) { b["valor"] = map[string]any{"original": "35.000"} }, "cobr.valor.original"},
		"another account":      {txid, func(b map[string]any) { b["recebedor"].(map[string]any)["conta"] = "7654321" }, "cobr.recebedor"},
		"a savings account":    {txid, func(b map[string]any) { b["recebedor"].(map[string]any)["tipoConta"] = "POUPANCA" }, "cobr.recebedor"},
		"no business days":     {txid, func(b map[string]any) { b["ajusteDiaUtil"] = false }, "cobr.ajusteDiaUtil"},
		"an unknown idRec":     {txid, func(b map[string]any) { b["idRec"] = "RR999999992026010100000000000" }, "cobr.idRec"},
		"a window not open":    {txid, func(b map[string]any) { b["calendario"] = map[string]any{"dataDeVencimento": day(12)} }, "cobr.calendario.dataDeVencimento"},
		"a long infoAdicional": {txid, func(b map[string]any) { b["infoAdicional"] = strings.Repeat("x", 141) }, "cobr.infoAdicional"},
	} {
		if got := violation(e.put("/v2/cobr/"+c.txid, cobrBody(idRec, c.edit))); got != "CobROperacaoInvalida "+c.prop {
			t.Errorf("%s: names %q, want %q", name, got, c.prop)
		}
	}
	for range 2 {
		if status, made := e.put("/v2/cobr/"+txid, cobrBody(idRec, nil)); status != http.StatusCreated || made["status"] != "CRIADA" ||
			made["txid"] != txid || made["idRec"] != idRec {
			t.Fatalf("create: %d %v", status, made)
		}
	}
	other := cobrBody(idRec, func(b map[string]any) { b["valor"] = map[string]any{"original": "36.00"} })
	if got := violation(e.put("/v2/cobr/"+txid, other)); got != "CobROperacaoInvalida cobr.txid" {
		t.Errorf("the txid with other terms: %q", got)
	}
	if n := len(e.sb.Transactions("RECURRENCE_CYCLE")); n != 1 {
		t.Fatalf("%d cycles, want 1", n)
	}

	if got := violation(e.patch("/v2/cobr/"+txid, map[string]any{"status": "ATIVA"})); got != "CobROperacaoInvalida cobr.status" {
		t.Errorf("a revision to ATIVA: %q", got)
	}
	if got := violation(e.post("/v2/cobr/"+txid+"/retentativa/2026-13-01", nil)); got != "CobROperacaoInvalida data" {
		t.Errorf("a retry on no day: %q", got)
	}
	if got := violation(e.post("/v2/cobr/"+txid+"/retentativa/"+day(6), nil)); got != "CobROperacaoInvalida data" {
		t.Errorf("a retry while the first attempt is open: %q", got)
	}
	unknown := strings.Repeat("b", 32)
	for _, call := range []func() (int, map[string]any){
		func() (int, map[string]any) { return e.call("GET /v2/cobr/"+unknown, e.token, nil, nil) },
		func() (int, map[string]any) {
			return e.patch("/v2/cobr/"+unknown, map[string]any{"status": "CANCELADA"})
		},
		func() (int, map[string]any) { return e.post("/v2/cobr/"+unknown+"/retentativa/"+day(6), nil) },
	} {
		if status, body := call(); status != http.StatusNotFound || body["type"] != "https://pix.bcb.gov.br/api/v2/error/CobRNaoEncontrado" {
			t.Errorf("an unknown txid: %d %v", status, body)
		}
	}
	if got := violation(e.put("/v2/webhookcobr", map[string]any{"webhookUrl": "ftp://x"})); got != "WebhookCobROperacaoInvalida webhookUrl" {
		t.Errorf("a webhook that is no URL: %q", got)
	}
}
