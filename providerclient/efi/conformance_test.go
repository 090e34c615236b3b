package efi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/providerclient/bcbpix/bcbpixtest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// recorder is a testing.TB that keeps what would have failed the test.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

// The conformance check is not a formality: a field the specification
// does not allow, in a request or in an answer, fails it.
func TestConformanceCatchesAWrongField(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	txid := strings.Repeat("a", 32)
	cob := func(body string) *http.Request {
		req, _ := http.NewRequest(http.MethodPut, e.srv.URL+"/v2/cob/"+txid, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	good := `{"calendario":{"expiracao":3600},"valor":{"original":"15.50"},"chave":"` + sandbox.DefaultPixKey + `"}`
	if err := e.v.Request(cob(good), []byte(good)); err != nil {
		t.Fatalf("a good charge is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"an amount without its two decimals": strings.Replace(good, `"15.50"`, `"15.5"`, 1),
		"an amount as a number":              strings.Replace(good, `"15.50"`, `15.50`, 1),
		"no key":                             `{"calendario":{"expiracao":3600},"valor":{"original":"15.50"}}`,
		"a payer with a 10-digit CPF":        strings.Replace(good, `"chave"`, `"devedor":{"cpf":"1234567890","nome":"F"},"chave"`, 1),
		// The specification's patterns are formats of the whole value
		// ("valores monetários obedecem ao pattern \d{1,10}\.\d{2}"),
		// not of some part of it.
		"an amount with three decimals": strings.Replace(good, `"15.50"`, `"15.500"`, 1),
		"a negative amount":             strings.Replace(good, `"15.50"`, `"-15.50"`, 1),
	} {
		if err := e.v.Request(cob(bad), []byte(bad)); err == nil {
			t.Errorf("%s: the request passed the check", name)
		}
	}
	badTxid, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/cob/short", nil)
	if err := e.v.Request(badTxid, nil); err == nil {
		t.Error("a txid of 5 characters passed the check")
	}
	longTxid, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/cob/"+strings.Repeat("a", 36), nil)
	if err := e.v.Request(longTxid, nil); err == nil {
		t.Error("a txid of 36 characters passed the check")
	}

	answer := `{"calendario":{"criacao":"2026-01-01T00:00:00.000Z","expiracao":3600},"txid":"` + txid + `","revisao":0,` +
		`"status":"ATIVA","valor":{"original":"15.50"},"chave":"k","pixCopiaECola":"000201"}`
	get, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/cob/"+txid, nil)
	h := http.Header{"Content-Type": {"application/json"}}
	if err := e.v.Response(get, 200, h, []byte(answer)); err != nil {
		t.Fatalf("a good answer is refused: %v", err)
	}
	if err := e.v.Response(get, 200, h, []byte(strings.Replace(answer, `"ATIVA"`, `"PAGA"`, 1))); err == nil {
		t.Error("a charge status the specification does not have passed the check")
	}
	if err := e.v.Response(get, 200, h, []byte(strings.Replace(answer, `"revisao":0,`, ``, 1))); err == nil {
		t.Error("an answer without its required revisao passed the check")
	}
	if err := e.v.Webhook([]byte(`{"pix":[{"endToEndId":"E1","valor":"1.00","horario":"2026-01-01T00:00:00Z"}]}`)); err == nil {
		t.Error("a webhook with a 2-character endToEndId passed the check")
	}
	e2e := strings.Repeat("E", 32)
	if err := e.v.Webhook([]byte(`{"pix":[{"endToEndId":"` + e2e + `","valor":"1.00","horario":"2026-01-01T00:00:00Z"}]}`)); err != nil {
		t.Errorf("a good webhook is refused: %v", err)
	}
	if err := e.v.Webhook([]byte(`{"pix":[{"endToEndId":"` + e2e + `","valor":"1.000","horario":"2026-01-01T00:00:00Z"}]}`)); err == nil {
		t.Error("a webhook with an amount of three decimals passed the check")
	}

	// And through the checking transport, as the connector's traffic goes:
	// the wrong request reaches the test's failures.
	rec := &recorder{TB: t}
	tr := &bcbpixtest.Transport{T: rec, V: e.v, Next: e.tr.Next}
	bad := strings.Replace(good, `"15.50"`, `"15.5"`, 1)
	req := cob(bad)
	req.Header.Set("Authorization", "Bearer x")
	if resp, err := tr.RoundTrip(req); err == nil {
		resp.Body.Close()
	}
	if len(rec.errors) == 0 || !strings.Contains(rec.errors[0], "does not conform") {
		t.Fatalf("the checking transport let a wrong field through: %v", rec.errors)
	}
}

// The same of due-date charges (cobv): a valid request and answer pass,
// each discount kind included (see the loader's corrections in
// bcbpixtest), and a wrong field fails.
func TestConformanceCatchesAWrongDueChargeField(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	url := e.srv.URL + "/v2/cobv/" + strings.Repeat("a", 32)
	put := func(body string) error {
		req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return e.v.Request(req, []byte(body))
	}
	good := `{"calendario":{"dataDeVencimento":"2026-12-01","validadeAposVencimento":30},` +
		`"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},"valor":{"original":"123.45",` +
		`"multa":{"modalidade":2,"valorPerc":"15.00"},"juros":{"modalidade":2,"valorPerc":"2.00"},` +
		`"desconto":{"modalidade":1,"descontoDataFixa":[{"data":"2026-11-30","valorPerc":"30.00"}]}},"chave":"k"}`
	perDay := strings.Replace(good, `{"modalidade":1,"descontoDataFixa":[{"data":"2026-11-30","valorPerc":"30.00"}]}`,
		`{"modalidade":3,"valorPerc":"1.00"}`, 1)
	for name, body := range map[string]string{"a dated discount": good, "a discount per day": perDay} {
		if err := put(body); err != nil {
			t.Errorf("%s is refused: %v", name, err)
		}
	}
	for name, bad := range map[string]string{
		"no devedor":                  strings.Replace(good, `"devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},`, ``, 1),
		"an interest of modalidade 9": strings.Replace(good, `"juros":{"modalidade":2`, `"juros":{"modalidade":9`, 1),
		"a fine of one decimal":       strings.Replace(good, `"15.00"`, `"15.0"`, 1),
		"a due date that is no date":  strings.Replace(good, `"2026-12-01"`, `"2026-13-01"`, 1),
		"a discount of modalidade 7":  strings.Replace(perDay, `"modalidade":3`, `"modalidade":7`, 1),
	} {
		if err := put(bad); err == nil {
			t.Errorf("%s: the request passed the check", name)
		}
	}

	// Efí's documented answer, with the location the BCB requires.
	answer := `{"calendario":{"criacao":"2026-09-09T20:15:00.358Z","dataDeVencimento":"2026-12-31","validadeAposVencimento":30},` +
		`"txid":"7978c0c97ea847e78e8849634473c1f1","revisao":0,"location":"pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25",` +
		`"loc":{"id":789,"txid":"7978c0c97ea847e78e8849634473c1f1","location":"pix.example.com/qr/c2/cobv/9d36b84fc70b478fb95c12729b90ca25","tipoCob":"cobv","criacao":"2026-09-09T20:15:00.358Z"},` +
		`"status":"ATIVA","devedor":{"cpf":"12345678909","nome":"Francisco da Silva"},` +
		`"recebedor":{"logradouro":"Rua 15 Numero 1200, Bairro São Luiz","cidade":"São Paulo","uf":"SP","cep":"70800100","cnpj":"56989000019533","nome":"Empresa de Logística SA"},` +
		`"valor":{"original":"123.45"},"chave":"k"}`
	get, _ := http.NewRequest(http.MethodGet, url, nil)
	h := http.Header{"Content-Type": {"application/json"}}
	if err := e.v.Response(get, 200, h, []byte(answer)); err != nil {
		t.Fatalf("a good answer is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no recebedor":           answer[:strings.Index(answer, `"recebedor"`)] + answer[strings.Index(answer, `"valor"`):],
		"a recebedor without uf": strings.Replace(answer, `"uf":"SP",`, ``, 1),
		"a status PAGA":          strings.Replace(answer, `"ATIVA"`, `"PAGA"`, 1),
	} {
		if err := e.v.Response(get, 200, h, []byte(bad)); err == nil {
			t.Errorf("%s: the answer passed the check", name)
		}
	}
}

// The same of recurrences: the BCB's own examples of a request pass once
// the loader's corrections are made (see bcbpixtest), a notification
// carrying an encerramento passes, and a wrong field fails.
func TestConformanceCatchesAWrongRecField(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	post := func(path, body string) error {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return e.v.Request(req, []byte(body))
	}
	good := `{"vinculo":{"contrato":"63100862","devedor":{"cpf":"45164632481","nome":"Fulano de Tal"},"objeto":"Streaming"},` +
		`"calendario":{"dataFinal":"2027-04-01","dataInicial":"2026-04-01","periodicidade":"MENSAL"},` +
		`"valor":{"valorRec":"35.00"},"politicaRetentativa":"NAO_PERMITE","loc":108}`
	if err := post("/v2/rec", good); err != nil {
		t.Fatalf("the BCB's example recBody1 is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no contrato":             strings.Replace(good, `"contrato":"63100862",`, ``, 1),
		"a contrato of 36":        strings.Replace(good, `"63100862"`, `"`+strings.Repeat("a", 36)+`"`, 1),
		"a daily periodicity":     strings.Replace(good, `"MENSAL"`, `"DIARIA"`, 1),
		"an amount of one place":  strings.Replace(good, `"35.00"`, `"35.0"`, 1),
		"a policy of its own":     strings.Replace(good, `"NAO_PERMITE"`, `"SEMPRE"`, 1),
		"a start that is no date": strings.Replace(good, `"2026-04-01"`, `"2026-13-01"`, 1),
		"a loc that is text":      strings.Replace(good, `108`, `"108"`, 1),
	} {
		if err := post("/v2/rec", bad); err == nil {
			t.Errorf("%s: the request passed the check", name)
		}
	}
	// Journey 3 names its cob (RecAtivacaoSolicitada), as recBody1 does.
	journey3 := strings.Replace(good, `"loc":108}`, `"loc":108,"ativacao":{"dadosJornada":{"txid":"33beb661beda44a8928fef47dbeb2dc5"}}}`, 1)
	if err := post("/v2/rec", journey3); err != nil {
		t.Fatalf("journey 3's recurrence is refused: %v", err)
	}
	if err := post("/v2/rec", strings.Replace(journey3, `"33beb661beda44a8928fef47dbeb2dc5"`, `"33beb"`, 1)); err == nil {
		t.Error("a dadosJornada.txid of 5 characters passed the check")
	}
	checkCompositeRead(t, e)
	solic := `{"idRec":"RN123456782024011577825445612","calendario":{"dataExpiracaoSolicitacao":"2026-12-20T12:17:11.926Z"},` +
		`"destinatario":{"agencia":"2569","conta":"550689","cpf":"15231470190","ispbParticipante":"91193552"}}`
	if err := post("/v2/solicrec", solic); err != nil {
		t.Fatalf("the BCB's example solicRecBody1 is refused: %v", err)
	}
	if err := post("/v2/solicrec", strings.Replace(solic, `"91193552"`, `"9119355"`, 1)); err == nil {
		t.Error("an ISPB of 7 digits passed the check")
	}
	if err := post("/v2/solicrec", strings.Replace(solic, `RN123456782024011577825445612`, `RN12345678`, 1)); err == nil {
		t.Error("an idRec of 10 characters passed the check")
	}

	hook := `{"recs":[{"idRec":"RR1026652320240821lab77511abf","status":"CANCELADA",` +
		`"atualizacao":[{"status":"CRIADA","data":"2024-08-20T10:12:07.567Z"},{"status":"CANCELADA","data":"2024-08-22T12:43:53.337Z"}],` +
		`"encerramento":{"cancelamento":{"solicitante":"USUARIO_RECEBEDOR","codigo":"SLCR","descricao":"Cancelado"}},` +
		`"ativacao":{"tipoJornada":"JORNADA_2"}}]}`
	if err := e.v.WebhookRec([]byte(hook)); err != nil {
		t.Fatalf("a good notification is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no atualizacao":    hook[:strings.Index(hook, `"atualizacao"`)] + hook[strings.Index(hook, `"encerramento"`):],
		"a status PAGA":     strings.Replace(hook, `"status":"CANCELADA",`, `"status":"PAGA",`, 1),
		"an unknown party":  strings.Replace(hook, `"USUARIO_RECEBEDOR"`, `"BANCO"`, 1),
		"a code of its own": strings.Replace(hook, `"SLCR"`, `"XXXX"`, 1),
	} {
		if err := e.v.WebhookRec([]byte(bad)); err == nil {
			t.Errorf("%s: the notification passed the check", name)
		}
	}
}

// checkCompositeRead: GET /v2/rec/{idRec}?txid= answers the composite
// BR Code in dadosQR (jornada JORNADA_3) and the cob in
// ativacao.dadosJornada; another jornada, or a txid not of the BCB's
// form, fails.
func checkCompositeRead(t *testing.T, e *env) {
	t.Helper()
	get, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/rec/RN1234567820241203fghijkabcde?txid=33beb661beda44a8928fef47dbeb2dc5", nil)
	if err := e.v.Request(get, nil); err != nil {
		t.Fatalf("the composite read is refused: %v", err)
	}
	answer := `{"idRec":"RN1234567820241203fghijkabcde","status":"CRIADA","valor":{"valorRec":"150.00"},` +
		`"vinculo":{"contrato":"5582610","devedor":{"cpf":"45164632481","nome":"Fulano de Tal"},"objeto":"Imóveis"},` +
		`"calendario":{"dataInicial":"2026-02-01","periodicidade":"MENSAL"},"politicaRetentativa":"NAO_PERMITE",` +
		`"recebedor":{"cnpj":"12345678000195","nome":"Empresa de Serviços SA"},` +
		`"atualizacao":[{"status":"CRIADA","data":"2026-01-03T08:30:02.050Z"}],` +
		`"ativacao":{"tipoJornada":"AGUARDANDO_DEFINICAO","dadosJornada":{"txid":"33beb661beda44a8928fef47dbeb2dc5"}},` +
		`"dadosQR":{"jornada":"JORNADA_3","pixCopiaECola":"00020101021226760014br.gov.bcb.pix6304"}}`
	h := http.Header{"Content-Type": {"application/json"}}
	if err := e.v.Response(get, 200, h, []byte(answer)); err != nil {
		t.Fatalf("a good composite read is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"a jornada 5":              strings.Replace(answer, `"JORNADA_3"`, `"JORNADA_5"`, 1),
		"a dadosJornada.txid of 5": strings.Replace(answer, `{"txid":"33beb661beda44a8928fef47dbeb2dc5"}`, `{"txid":"33beb"}`, 1),
	} {
		if err := e.v.Response(get, 200, h, []byte(bad)); err == nil {
			t.Errorf("%s: the answer passed the check", name)
		}
	}
}
