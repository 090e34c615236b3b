package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recBody is a valid POST /v2/rec body (a monthly fixed recurrence from
// next week, retries permitted), edited by edit.
func recBody(edit func(map[string]any)) map[string]any {
	b := map[string]any{
		"vinculo":             map[string]any{"contrato": "63100862", "objeto": "Plano Ouro", "devedor": map[string]any{"cpf": "52998224725", "nome": "Fulano de Tal"}},
		"calendario":          map[string]any{"dataInicial": day(7), "dataFinal": day(400), "periodicidade": "MENSAL"},
		"valor":               map[string]any{"valorRec": "35.00"},
		"politicaRetentativa": "PERMITE_3R_7D",
	}
	if edit != nil {
		edit(b)
	}
	return b
}

// patch sends body with PATCH.
func (e *env) patch(path string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.call(path, e.token, body, func(r *http.Request) { r.Method = http.MethodPatch })
}

// violation is a 400's problem type and the property its first violation
// names ("RecOperacaoInvalida rec.loc"), or "".
func violation(status int, body map[string]any) string {
	vs, _ := body["violacoes"].([]any)
	typ, ok := strings.CutPrefix(fmt.Sprint(body["type"]), "https://pix.bcb.gov.br/api/v2/error/")
	if status != http.StatusBadRequest || !ok || len(vs) == 0 {
		return ""
	}
	return typ + " " + vs[0].(map[string]any)["propriedade"].(string)
}

// The face refuses a recurrence as the BCB's RecOperacaoInvalida, each
// violation naming its property as the BCB's list does; a location serves
// one recurrence.
func TestEfiRecRefusals(t *testing.T) {
	e := newEfiEnv(t)
	vinculo := func(b map[string]any) map[string]any { return b["vinculo"].(map[string]any) }
	cal := func(b map[string]any) map[string]any { return b["calendario"].(map[string]any) }
	for name, c := range map[string]struct {
		edit func(map[string]any)
		prop string
	}{
		"no contrato":         {func(b map[string]any) { delete(vinculo(b), "contrato") }, "RecOperacaoInvalida rec.vinculo"},
		"a devedor's bad cpf": {func(b map[string]any) { vinculo(b)["devedor"] = map[string]any{"cpf": "12345678900", "nome": "F"} }, "RecOperacaoInvalida rec.vinculo"},
		"a start passed":      {func(b map[string]any) { cal(b)["dataInicial"] = day(-1) }, "RecOperacaoInvalida rec.calendario.dataInicial"},
		"an end before it":    {func(b map[string]any) { cal(b)["dataFinal"] = day(3) }, "RecOperacaoInvalida rec.calendario.dataFinal"},
		"a daily periodicity": {func(b map[string]any) { cal(b)["periodicidade"] = "DIARIA" }, "RecOperacaoInvalida rec.calendario.periodicidade"},
		"both amounts": {func(b map[string]any) {
			b["valor"] = map[string]any{"valorRec": "35.00", "valorMinimoRecebedor": "5.00"}
		}, "RecOperacaoInvalida rec.valor"},
		"an amount of 3 places": {func(b map[string]any) { b["valor"] = map[string]any{"valorRec": "35.000"} }, "RecOperacaoInvalida rec.valor.valorRec"},
		"a policy of its own":   {func(b map[string]any) { b["politicaRetentativa"] = "SEMPRE" }, "RecOperacaoInvalida rec.politicaRetentativa"},
		"journey 3 without its cob": {func(b map[string]any) {
			b["ativacao"] = map[string]any{"dadosJornada": map[string]any{"txid": strings.Repeat("a", 32)}}
		}, "RecOperacaoInvalida rec.ativacao.dadosJornada.txid"},
		"a convenio":             {func(b map[string]any) { b["recebedor"] = map[string]any{"convenio": "Master"} }, "RecOperacaoInvalida rec.recebedor"},
		"a location never given": {func(b map[string]any) { b["loc"] = 42 }, "RecOperacaoInvalida rec.loc"},
	} {
		if got := violation(e.post("/v2/rec", recBody(c.edit))); got != c.prop {
			t.Errorf("%s: names %q, want %q", name, got, c.prop)
		}
	}
	_, loc := e.post("/v2/locrec", nil)
	withLoc := recBody(func(b map[string]any) { b["loc"] = loc["id"] })
	if status, rec := e.post("/v2/rec", withLoc); status != http.StatusCreated || rec["loc"] == nil {
		t.Fatalf("on its location: %d %v", status, rec)
	}
	if got := violation(e.post("/v2/rec", withLoc)); got != "RecOperacaoInvalida rec.loc" {
		t.Fatalf("a location used twice: %q", got)
	}
	if n := len(e.sb.Transactions("RECURRENCE")); n != 1 {
		t.Fatalf("%d recurrences, want 1", n)
	}
}

// A recurrence is CRIADA with the terms asked, an idRec of the BCB's form
// ("RR" permitting retries), the sandbox as its recebedor; a QR one reads
// with its BR Code in dadosQR.
func TestEfiRecCreateAndRead(t *testing.T) {
	e := newEfiEnv(t)
	_, loc := e.post("/v2/locrec", nil)
	status, made := e.post("/v2/rec", recBody(func(b map[string]any) { b["loc"] = loc["id"] }))
	id, _ := made["idRec"].(string)
	if status != http.StatusCreated || len(id) != 29 || !strings.HasPrefix(id, "RR"+sandboxISPB) || made["status"] != "CRIADA" ||
		made["dadosQR"] != nil || made["recebedor"].(map[string]any)["cnpj"] != sandboxCNPJ {
		t.Fatalf("create: %d %v", status, made)
	}
	status, got := e.call("GET /v2/rec/"+id, e.token, nil, nil)
	qr, _ := got["dadosQR"].(map[string]any)
	if status != http.StatusOK || qr["jornada"] != "JORNADA_2" || !strings.HasPrefix(qr["pixCopiaECola"].(string), "000201") ||
		got["ativacao"].(map[string]any)["tipoJornada"] != "AGUARDANDO_DEFINICAO" || got["loc"].(map[string]any)["location"] != loc["location"] {
		t.Fatalf("read: %d %v", status, got)
	}
	if status, body := e.call("GET /v2/rec/RN999999992026010100000000000", e.token, nil, nil); status != http.StatusNotFound ||
		body["type"] != "https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada" {
		t.Fatalf("an unknown idRec: %d %v", status, body)
	}
	q := "?inicio=" + time.Now().Add(-time.Minute).UTC().Format(time.RFC3339) + "&fim=" + time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	for filter, want := range map[string]int{"": 1, "&cpf=52998224725": 1, "&cpf=11144477735": 0, "&cnpj=11222333000181": 0} {
		_, list := e.call("GET /v2/rec"+q+filter, e.token, nil, nil)
		if recs, _ := list["recs"].([]any); len(recs) != want {
			t.Errorf("list%s: %v, want %d", filter, list, want)
		}
	}
	if got := violation(e.call("GET /v2/rec"+q+"&cpf=52998224725&cnpj=11222333000181", e.token, nil, nil)); got != "RecConsultaInvalida cpf" {
		t.Errorf("cpf and cnpj: %q", got)
	}
}

// The push journey's solicitation is refused as the BCB's
// SolicRecOperacaoInvalida; sent, it moves the consent's deadline, and a
// second while it is open is refused. Approved, the recurrence names who
// consented and the solicitation reads ACEITA.
func TestEfiSolicRec(t *testing.T) {
	e := newEfiEnv(t)
	_, rec := e.post("/v2/rec", recBody(func(b map[string]any) { b["politicaRetentativa"] = "NAO_PERMITE" }))
	id := rec["idRec"].(string)
	if !strings.HasPrefix(id, "RN") {
		t.Fatalf("idRec %s of a recurrence without retries", id)
	}
	deadline := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Millisecond)
	solic := func(edit func(map[string]any)) map[string]any {
		b := map[string]any{"idRec": id, "calendario": map[string]any{"dataExpiracaoSolicitacao": deadline.Format(time.RFC3339Nano)},
			"destinatario": map[string]any{"agencia": "2569", "conta": "550689", "cpf": "52998224725", "ispbParticipante": "91193552"}}
		if edit != nil {
			edit(b)
		}
		return b
	}
	for name, c := range map[string]struct {
		edit func(map[string]any)
		prop string
	}{
		"a deadline passed": {func(b map[string]any) {
			b["calendario"] = map[string]any{"dataExpiracaoSolicitacao": time.Now().Add(-time.Hour).Format(time.RFC3339)}
		}, "SolicRecOperacaoInvalida solicrec.calendario.dataExpiracaoSolicitacao"},
		"a deadline of 31 days": {func(b map[string]any) {
			b["calendario"] = map[string]any{"dataExpiracaoSolicitacao": time.Now().AddDate(0, 0, 31).Format(time.RFC3339)}
		}, "SolicRecOperacaoInvalida solicrec.calendario.dataExpiracaoSolicitacao"},
		"no ispb": {func(b map[string]any) { delete(b["destinatario"].(map[string]any), "ispbParticipante") }, "SolicRecOperacaoInvalida solicrec.destinatario"},
	} {
		if got := violation(e.post("/v2/solicrec", solic(c.edit))); got != c.prop {
			t.Errorf("%s: names %q, want %q", name, got, c.prop)
		}
	}
	status, sent := e.post("/v2/solicrec", solic(nil))
	if status != http.StatusCreated || sent["status"] != "ENVIADA" || len(sent["idSolicRec"].(string)) != 29 || sent["recPayload"] == nil {
		t.Fatalf("solicrec: %d %v", status, sent)
	}
	if got := violation(e.post("/v2/solicrec", solic(nil))); got != "SolicRecOperacaoInvalida solicrec.idRec" {
		t.Fatalf("a second while open: %q", got)
	}
	if at, _ := e.sb.Recurrence(id); at.Journey != "PUSH" || at.Payer.Bank == nil || at.Payer.Bank.ISPB != "91193552" {
		t.Fatalf("at the sandbox: %+v", at)
	}
	if _, err := e.sb.ApproveRecurrence(id, 0); err != nil {
		t.Fatal(err)
	}
	_, got := e.call("GET /v2/rec/"+id, e.token, nil, nil)
	solics, _ := got["solicitacao"].([]any)
	if got["status"] != "APROVADA" || got["pagador"].(map[string]any)["ispbParticipante"] != "91193552" || len(solics) != 1 ||
		solics[0].(map[string]any)["status"] != "ACEITA" || got["ativacao"].(map[string]any)["tipoJornada"] != "JORNADA_1" {
		t.Fatalf("approved: %v", got)
	}
	_, loc := e.post("/v2/locrec", nil)
	_, qr := e.post("/v2/rec", recBody(func(b map[string]any) { b["loc"] = loc["id"] }))
	if got := violation(e.post("/v2/solicrec", map[string]any{"idRec": qr["idRec"], "calendario": solic(nil)["calendario"],
		"destinatario": solic(nil)["destinatario"]})); got != "SolicRecOperacaoInvalida solicrec.idRec" {
		t.Fatalf("a solicitation of a QR recurrence: %q", got)
	}
}

// The integrator cancels with PATCH status CANCELADA, once; the change is
// notified in the BCB's shape at {webhookUrl}/rec of PUT /v2/webhookrec.
func TestEfiRecCancelAndNotify(t *testing.T) {
	e := newEfiEnv(t)
	var mu sync.Mutex
	var got []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(body))
		mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	if status, _ := e.call("/v2/webhookrec", e.token, map[string]any{"webhookUrl": hook.URL + "/hook"},
		func(r *http.Request) { r.Method = http.MethodPut }); status != http.StatusOK {
		t.Fatalf("webhookrec: %d", status)
	}
	_, rec := e.post("/v2/rec", recBody(func(b map[string]any) { b["valor"] = map[string]any{"valorMinimoRecebedor": "10.00"} }))
	id := rec["idRec"].(string)
	if _, err := e.sb.ApproveRecurrence(id, money.FromReais(5, 0)); err == nil {
		t.Fatal("a maximum below the floor was taken")
	}
	for name, body := range map[string]map[string]any{
		"another status":   {"status": "APROVADA"},
		"another revision": {"status": "CANCELADA", "calendario": map[string]any{"dataInicial": day(9)}},
	} {
		if status, _ := e.patch("/v2/rec/"+id, body); status != http.StatusBadRequest {
			t.Errorf("%s: %d", name, status)
		}
	}
	status, cancelled := e.patch("/v2/rec/"+id, map[string]any{"status": "CANCELADA"})
	end, _ := cancelled["encerramento"].(map[string]any)
	if status != http.StatusOK || cancelled["status"] != "CANCELADA" ||
		end["cancelamento"].(map[string]any)["solicitante"] != recurrence.PartyIntegrator.BCB() {
		t.Fatalf("cancel: %d %v", status, cancelled)
	}
	if got := violation(e.patch("/v2/rec/"+id, map[string]any{"status": "CANCELADA"})); got != "RecOperacaoInvalida rec.status" {
		t.Fatalf("cancelled twice: %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notification")
		}
		time.Sleep(5 * time.Millisecond)
	}
	path, body, _ := strings.Cut(got[0], " ")
	var n struct {
		Recs []struct {
			IDRec, Status string
			Atualizacao   []struct{ Status, Data string }
		}
	}
	if err := json.Unmarshal([]byte(body), &n); err != nil || path != "/hook/rec" || len(n.Recs) != 1 || n.Recs[0].IDRec != id ||
		n.Recs[0].Status != "CANCELADA" || len(n.Recs[0].Atualizacao) != 2 {
		t.Fatalf("notification at %s: %s (%v)", path, body, err)
	}
}
