package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money"
)

// cobBody is a PUT /v2/cob body of amount, valid an hour.
func cobBody(amount string) map[string]any {
	return map[string]any{"calendario": map[string]any{"expiracao": 3600}, "valor": map[string]any{"original": amount},
		"chave": DefaultPixKey, "devedor": map[string]any{"cpf": "52998224725", "nome": "Fulano de Tal"}}
}

// newCob is a new cob of amount, by its txid.
func (e *env) newCob(amount string) string {
	e.t.Helper()
	txid := randomAlnum(32)
	if status, body := e.put("/v2/cob/"+txid, cobBody(amount)); status != http.StatusCreated {
		e.t.Fatalf("cob: %d %v", status, body)
	}
	return txid
}

// firstRecBody is journey 3's POST /v2/rec from today on a new location,
// naming the cob txid, edited by edit.
func (e *env) firstRecBody(txid string, edit func(map[string]any)) map[string]any {
	_, loc := e.post("/v2/locrec", nil)
	return recBody(func(b map[string]any) {
		b["loc"] = loc["id"]
		b["calendario"].(map[string]any)["dataInicial"] = day(0)
		b["ativacao"] = map[string]any{"dadosJornada": map[string]any{"txid": txid}}
		if edit != nil {
			edit(b)
		}
	})
}

// Journey 3: the recurrence names its cob in ativacao.dadosJornada.txid;
// read with that txid it answers the composite BR Code (the cob's location
// and the recurrence's), without one no BR Code; the approval pays the cob
// (CONCLUIDA, its PIX listed) and the recurrence reads JORNADA_3.
func TestEfiRecFirstPayment(t *testing.T) {
	e := newEfiEnv(t)
	txid := e.newCob("35.00")
	status, made := e.post("/v2/rec", e.firstRecBody(txid, nil))
	id, _ := made["idRec"].(string)
	ativacao, _ := made["ativacao"].(map[string]any)
	if status != http.StatusCreated || ativacao["tipoJornada"] != "AGUARDANDO_DEFINICAO" ||
		ativacao["dadosJornada"].(map[string]any)["txid"] != txid {
		t.Fatalf("create: %d %v", status, made)
	}
	status, got := e.call("GET /v2/rec/"+id+"?txid="+txid, e.token, nil, nil)
	qr, _ := got["dadosQR"].(map[string]any)
	if status != http.StatusOK || qr["jornada"] != "JORNADA_3" {
		t.Fatalf("read with the cob: %d %v", status, got)
	}
	p, err := brcodetest.Parse(qr["pixCopiaECola"].(string))
	if err != nil || p.RecurrenceLocation != made["loc"].(map[string]any)["location"] || p.Location == "" || strings.Contains(p.Location, "/rec/") || p.Amount != money.FromReais(35, 0) {
		t.Fatalf("composite code: %+v, %v", p, err)
	}
	if _, alone := e.call("GET /v2/rec/"+id, e.token, nil, nil); alone["dadosQR"] != nil {
		t.Fatalf("read without the cob: %v", alone)
	}

	if _, err := e.sb.ApproveRecurrence(id, 0); err != nil {
		t.Fatal(err)
	}
	_, cob := e.call("GET /v2/cob/"+txid, e.token, nil, nil)
	if pix, _ := cob["pix"].([]any); cob["status"] != "CONCLUIDA" || len(pix) != 1 {
		t.Fatalf("the cob once approved: %v", cob)
	}
	_, got = e.call("GET /v2/rec/"+id, e.token, nil, nil)
	if a := got["ativacao"].(map[string]any); got["status"] != "APROVADA" || a["tipoJornada"] != "JORNADA_3" ||
		a["dadosJornada"].(map[string]any)["txid"] != txid {
		t.Fatalf("approved: %v", got)
	}
}

// What journey 3 refuses: a txid naming no ATIVA cob of the recurrence's
// fixed amount, or one another recurrence has (RecOperacaoInvalida naming
// rec.ativacao.dadosJornada.txid), no location (rec.loc); and the read of
// a recurrence with any other txid than its cob's (RecConsultaInvalida).
func TestEfiRecFirstPaymentRefusals(t *testing.T) {
	e := newEfiEnv(t)
	txidProp := "RecOperacaoInvalida " + dadosJornadaTxid
	paid := e.newCob("35.00")
	if _, err := e.sb.PayCharge(paid, Payer{}); err != nil {
		t.Fatal(err)
	}
	cobv := randomAlnum(32)
	if status, body := e.put("/v2/cobv/"+cobv, cobvBody(nil)); status != http.StatusCreated {
		t.Fatalf("cobv: %d %v", status, body)
	}
	for name, c := range map[string]struct {
		txid string
		edit func(map[string]any)
		prop string
	}{
		"no cob":         {randomAlnum(32), nil, txidProp},
		"a short txid":   {"abc", nil, txidProp},
		"another amount": {e.newCob("30.00"), nil, txidProp},
		"a paid cob":     {paid, nil, txidProp},
		"a cobv":         {cobv, nil, txidProp},
		"no location":    {e.newCob("35.00"), func(b map[string]any) { delete(b, "loc") }, "RecOperacaoInvalida rec.loc"},
	} {
		if got := violation(e.post("/v2/rec", e.firstRecBody(c.txid, c.edit))); got != c.prop {
			t.Errorf("%s: names %q, want %q", name, got, c.prop)
		}
	}
	good := e.newCob("35.00")
	status, made := e.post("/v2/rec", e.firstRecBody(good, nil))
	if status != http.StatusCreated {
		t.Fatalf("create: %d %v", status, made)
	}
	if got := violation(e.post("/v2/rec", e.firstRecBody(good, nil))); got != txidProp {
		t.Errorf("a cob another recurrence has: %q", got)
	}
	_, loc := e.post("/v2/locrec", nil)
	_, qr := e.post("/v2/rec", recBody(func(b map[string]any) { b["loc"] = loc["id"] }))
	for name, path := range map[string]string{
		"another cob":              made["idRec"].(string) + "?txid=" + e.newCob("35.00"),
		"a cobv":                   made["idRec"].(string) + "?txid=" + cobv,
		"a recurrence of QR alone": qr["idRec"].(string) + "?txid=" + good,
	} {
		if got := violation(e.call("GET /v2/rec/"+path, e.token, nil, nil)); got != "RecConsultaInvalida txid" {
			t.Errorf("read with %s: %q", name, got)
		}
	}
	if n := len(e.sb.Transactions("RECURRENCE")); n != 2 {
		t.Fatalf("%d recurrences, want 2", n)
	}
}
