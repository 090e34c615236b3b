package efi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// The same of cycle charges (cobr): a valid request, answer and
// notification pass, a paid one's PIX and an encerramento included (see
// the loader's corrections in bcbpixtest), and a wrong field fails.
func TestConformanceCatchesAWrongCobRField(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	url := e.srv.URL + "/v2/cobr/" + strings.Repeat("a", 32)
	put := func(body string) error {
		req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return e.v.Request(req, []byte(body))
	}
	good := `{"idRec":"RR1234567820240115abcdefghijk","infoAdicional":"Plano Ouro","calendario":{"dataDeVencimento":"2026-04-15"},` +
		`"valor":{"original":"106.07"},"ajusteDiaUtil":true,"devedor":{"email":"f@example.com"},` +
		`"recebedor":{"agencia":"0001","conta":"1234567","tipoConta":"CORRENTE"}}`
	if err := put(good); err != nil {
		t.Fatalf("a good request is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no recebedor":            good[:strings.Index(good, `,"recebedor"`)] + "}",
		"a tipoConta of its own":  strings.Replace(good, `"CORRENTE"`, `"SALARIO"`, 1),
		"an amount of one place":  strings.Replace(good, `"106.07"`, `"106.0"`, 1),
		"an idRec of 10":          strings.Replace(good, `RR1234567820240115abcdefghijk`, `RR12345678`, 1),
		"a due date that is none": strings.Replace(good, `"2026-04-15"`, `"2026-13-15"`, 1),
		"a branch of 5":           strings.Replace(good, `"0001"`, `"00001"`, 1),
	} {
		if err := put(bad); err == nil {
			t.Errorf("%s: the request passed the check", name)
		}
	}

	answer := `{"idRec":"RR1234567820240115abcdefghijk","txid":"` + strings.Repeat("a", 32) + `",` +
		`"calendario":{"criacao":"2026-04-05","dataDeVencimento":"2026-04-15"},"valor":{"original":"106.07"},"ajusteDiaUtil":true,` +
		`"recebedor":{"cnpj":"11222333000181","nome":"PIXGATE SANDBOX","agencia":"0001","conta":"1234567","tipoConta":"CORRENTE"},` +
		`"status":"CONCLUIDA","politicaRetentativa":"PERMITE_3R_7D",` +
		`"atualizacao":[{"status":"CRIADA","data":"2026-04-05T10:00:00Z"},{"status":"CONCLUIDA","data":"2026-04-15T10:00:00Z"}],` +
		`"tentativas":[{"dataLiquidacao":"2026-04-15","tipo":"AGND","status":"PAGA","endToEndId":"E99999999202604151000abcdefghijk",` +
		`"atualizacao":[{"status":"SOLICITADA","data":"2026-04-05T10:00:00Z"},{"status":"PAGA","data":"2026-04-15T10:00:00Z"}]}],` +
		`"pix":[{"endToEndId":"E99999999202604151000abcdefghijk","txid":"` + strings.Repeat("a", 32) + `","valor":"106.07","horario":"2026-04-15T10:00:00Z"}]}`
	get, _ := http.NewRequest(http.MethodGet, url, nil)
	h := http.Header{"Content-Type": {"application/json"}}
	if err := e.v.Response(get, 200, h, []byte(answer)); err != nil {
		t.Fatalf("a good answer is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"a status PAGA":              strings.Replace(answer, `"status":"CONCLUIDA","politica`, `"status":"PAGA","politica`, 1),
		"an attempt without its e2e": strings.Replace(answer, `"endToEndId":"E99999999202604151000abcdefghijk",`, ``, 1),
		"an attempt of kind XXXX":    strings.Replace(answer, `"AGND"`, `"XXXX"`, 1),
		"a pix of three decimals":    strings.Replace(answer, `"valor":"106.07","horario"`, `"valor":"106.070","horario"`, 1),
		"no politicaRetentativa":     strings.Replace(answer, `"politicaRetentativa":"PERMITE_3R_7D",`, ``, 1),
	} {
		if err := e.v.Response(get, 200, h, []byte(bad)); err == nil {
			t.Errorf("%s: the answer passed the check", name)
		}
	}
	// The answer of the PUT (CobRGerada) names who the receiver is.
	putReq, _ := http.NewRequest(http.MethodPut, url, nil)
	if err := e.v.Response(putReq, 201, h, []byte(answer)); err != nil {
		t.Fatalf("a good answer to the PUT is refused: %v", err)
	}
	if err := e.v.Response(putReq, 201, h, []byte(strings.Replace(answer, `"cnpj":"11222333000181",`, ``, 1))); err == nil {
		t.Error("an answer to the PUT with a recebedor without cnpj passed the check")
	}

	hook := `{"cobsr":[{"idRec":"RR1234567820240115abcdefghijk","txid":"` + strings.Repeat("a", 32) + `","status":"CANCELADA",` +
		`"atualizacao":[{"status":"CRIADA","data":"2026-04-05T10:00:00Z"},{"status":"CANCELADA","data":"2026-04-06T10:00:00Z"}],` +
		`"encerramento":{"cancelamento":{"solicitante":"USUARIO_RECEBEDOR","codigo":"SLCR","descricao":"Cancelada"}}}]}`
	if err := e.v.WebhookCobR([]byte(hook)); err != nil {
		t.Fatalf("a good notification is refused: %v", err)
	}
	for name, bad := range map[string]string{
		"no atualizacao":    hook[:strings.Index(hook, `"atualizacao"`)] + hook[strings.Index(hook, `"encerramento"`):],
		"an unknown party":  strings.Replace(hook, `"USUARIO_RECEBEDOR"`, `"BANCO"`, 1),
		"a code of its own": strings.Replace(hook, `"SLCR"`, `"XXXX"`, 1),
		"no txid":           strings.Replace(hook, `"txid":"`+strings.Repeat("a", 32)+`",`, ``, 1),
	} {
		if err := e.v.WebhookCobR([]byte(bad)); err == nil {
			t.Errorf("%s: the notification passed the check", name)
		}
	}
}
