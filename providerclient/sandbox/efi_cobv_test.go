package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
)

// newEfiEnv is the efi face over plain HTTP (its mutual TLS is the
// connector's tests' business), with a token ready.
func newEfiEnv(t *testing.T) *env {
	t.Helper()
	sb := New(Config{Contract: ContractEfi, SettleDelay: 20 * time.Millisecond})
	e := &env{t: t, sb: sb, srv: httptest.NewServer(sb.Handler())}
	t.Cleanup(e.srv.Close) // after sb.Close
	t.Cleanup(sb.Close)
	status, body := e.call("/oauth/token", "", `{"grant_type":"client_credentials"}`,
		func(r *http.Request) { r.SetBasicAuth(DefaultClientID, DefaultClientSecret) })
	if status != http.StatusOK {
		t.Fatalf("token: %d %v", status, body)
	}
	e.token = body["access_token"].(string)
	return e
}

// put sends body with PUT.
func (e *env) put(path string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.call(path, e.token, body, func(r *http.Request) { r.Method = http.MethodPut })
}

// cobvBody is a valid PUT /v2/cobv body due tomorrow, edited by edit.
func cobvBody(edit func(map[string]any)) map[string]any {
	b := map[string]any{
		"calendario": map[string]any{"dataDeVencimento": due.Today(time.Now()).AddDays(1).String(), "validadeAposVencimento": 10},
		"devedor":    map[string]any{"cpf": "52998224725", "nome": "Fulano de Tal"},
		"valor": map[string]any{"original": "100.00", "multa": map[string]any{"modalidade": 2, "valorPerc": "2.00"},
			"juros":    map[string]any{"modalidade": 6, "valorPerc": "0.10"},
			"desconto": map[string]any{"modalidade": 1, "descontoDataFixa": []any{map[string]any{"data": due.Today(time.Now()).String(), "valorPerc": "5.00"}}}},
		"chave": DefaultPixKey,
	}
	if edit != nil {
		edit(b)
	}
	return b
}

func valor(b map[string]any) map[string]any { return b["valor"].(map[string]any) }

// The face refuses a due-date charge as the BCB's CobVOperacaoInvalida,
// each violation naming its property as Efí's example does.
func TestEfiCobVRefusals(t *testing.T) {
	e := newEfiEnv(t)
	txid := strings.Repeat("b", 32)
	for name, c := range map[string]struct {
		edit func(map[string]any)
		prop string
	}{
		"no devedor":               {func(b map[string]any) { delete(b, "devedor") }, "cobv.devedor"},
		"a devedor without a doc":  {func(b map[string]any) { b["devedor"] = map[string]any{"nome": "F"} }, "cobv.devedor"},
		"another account's key":    {func(b map[string]any) { b["chave"] = "x@example.com" }, "cobv.chave"},
		"an amount of one decimal": {func(b map[string]any) { valor(b)["original"] = "100.0" }, "cobv.valor.original"},
		"a fine of modalidade 3":   {func(b map[string]any) { valor(b)["multa"] = map[string]any{"modalidade": 3, "valorPerc": "2.00"} }, "cobv.valor.multa.modalidade"},
		"interest of three places": {func(b map[string]any) { valor(b)["juros"] = map[string]any{"modalidade": 2, "valorPerc": "0.105"} }, "cobv.valor.juros.valorPerc"},
		"a dated discount's value": {func(b map[string]any) { valor(b)["desconto"] = map[string]any{"modalidade": 2, "valorPerc": "1.00"} }, "cobv.valor.desconto"},
		"a due date passed": {func(b map[string]any) {
			b["calendario"] = map[string]any{"dataDeVencimento": due.Today(time.Now()).AddDays(-1).String()}
			delete(valor(b), "desconto")
		}, "cobv.calendario.dataDeVencimento"},
	} {
		status, body := e.put("/v2/cobv/"+txid, cobvBody(c.edit))
		vs, _ := body["violacoes"].([]any)
		if status != 400 || body["type"] != "https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida" || len(vs) == 0 ||
			vs[0].(map[string]any)["propriedade"] != c.prop {
			t.Errorf("%s: %d %v, want 400 naming %s", name, status, body, c.prop)
		}
	}
	if n := e.sb.Stats().ChargesCreated; n != 0 {
		t.Fatalf("%d charges created by refused requests", n)
	}
}

// A due-date charge lives at /v2/cobv: its PUT answers without the BR
// Code, as Efí documents, and its read with it; a cob's routes do not
// know it, nor its routes a cob; paid, it is CONCLUIDA with the PIX of the
// day's amount.
func TestEfiCobV(t *testing.T) {
	e := newEfiEnv(t)
	txid := strings.Repeat("c", 32)
	status, made := e.put("/v2/cobv/"+txid, cobvBody(nil))
	if status != 201 || made["status"] != "ATIVA" || made["pixCopiaECola"] != nil || made["recebedor"] == nil {
		t.Fatalf("PUT: %d %v", status, made)
	}
	if v := made["valor"].(map[string]any); v["original"] != "100.00" || v["juros"].(map[string]any)["modalidade"] != json.Number("6") {
		t.Fatalf("valor: %v", v)
	}
	status, got := e.call("GET /v2/cobv/"+txid, e.token, nil, nil)
	if status != 200 || got["pixCopiaECola"] == nil || !strings.Contains(got["location"].(string), "/cobv/"+txid) {
		t.Fatalf("GET: %d %v", status, got)
	}
	if status, body := e.call("GET /v2/cob/"+txid, e.token, nil, nil); status != 404 || body["type"] != "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado" {
		t.Fatalf("a cobv read as a cob: %d %v", status, body)
	}
	cob := strings.Repeat("d", 32)
	if status, _ := e.put("/v2/cob/"+cob, map[string]any{"calendario": map[string]any{"expiracao": 3600},
		"valor": map[string]any{"original": "1.00"}, "chave": DefaultPixKey}); status != 201 {
		t.Fatalf("cob: %d", status)
	}
	if status, body := e.call("GET /v2/cobv/"+cob, e.token, nil, nil); status != 404 || body["type"] != "https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada" {
		t.Fatalf("a cob read as a cobv: %d %v", status, body)
	}
	if status, _ := e.put("/v2/cobv/"+cob, cobvBody(nil)); status != 400 {
		t.Fatalf("a cobv under a cob's txid: %d", status)
	}

	// On its due date: what its terms ask that day (docs/due-charges.md).
	at := due.Today(time.Now()).AddDays(1).End().Add(-time.Hour)
	e.sb.mu.Lock()
	asked, err := e.sb.records[txid].due.AmountOn(due.Today(at))
	e.sb.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.PayChargeAt(txid, Payer{}, at); err != nil {
		t.Fatal(err)
	}
	_, got = e.call("GET /v2/cobv/"+txid, e.token, nil, nil)
	pix, _ := got["pix"].([]any)
	if got["status"] != "CONCLUIDA" || len(pix) != 1 || pix[0].(map[string]any)["valor"] != asked.Total.String() {
		t.Fatalf("paid: %v, want %s", got, asked.Total)
	}
	q := "?inicio=" + time.Now().Add(-time.Minute).UTC().Format(time.RFC3339) + "&fim=" + time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	_, list := e.call("GET /v2/cobv"+q, e.token, nil, nil)
	if cobs, _ := list["cobs"].([]any); len(cobs) != 1 || cobs[0].(map[string]any)["txid"] != txid {
		t.Fatalf("list of cobvs: %v", list)
	}
	_, list = e.call("GET /v2/cob"+q, e.token, nil, nil)
	if cobs, _ := list["cobs"].([]any); len(cobs) != 1 || cobs[0].(map[string]any)["txid"] != cob {
		t.Fatalf("list of cobs: %v", list)
	}
}
