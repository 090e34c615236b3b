package sandbox

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The efi face's due-date charges (BCB API Pix 2.9.0, tag CobV): created by
// PUT /v2/cobv/{txid} through the core's createCharge with the terms, read
// by GET, listed by GET /v2/cobv. Their refusals are the BCB's
// CobVOperacaoInvalida, each violation naming its property as Efí's
// documented example does ("cobv.devedor"); PATCH is not served.

// The sandbox account's address, which a due-date charge names with its
// receiver (recebedor requires one); the city is the BR Code's.
const (
	sandboxStreet = "Avenida Paulista, 1000"
	sandboxUF     = "SP"
	sandboxCEP    = "01310100"
)

func (f efiFace) putCobV(w http.ResponseWriter, r *http.Request) {
	txid := r.PathValue("txid")
	var req bcbpix.CobVRequest
	if !efiDecode(w, r, &req) {
		return
	}
	now := time.Now()
	terms, debtor, bad := f.readCobV(txid, req, now)
	if len(bad) > 0 {
		writeProblemType(w, http.StatusBadRequest, "CobVOperacaoInvalida", "the due-date charge is not valid", bad...)
		return
	}
	f.s.mu.Lock()
	hook := f.s.webhooks[req.Chave]
	f.s.mu.Unlock()
	rec, created, err := f.s.createCharge(chargeSpec{id: txid, externalID: txid, amount: terms.Original, debtor: debtor,
		description: req.SolicitacaoPagador, postbackURL: hook, due: &terms}, now)
	if err != nil {
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	var c bcbpix.CobV
	isDue := rec.due != nil
	if isDue {
		f.s.mu.Lock()
		c = f.cobvOf(rec, now)
		f.s.mu.Unlock()
	}
	switch {
	case !created && !isDue:
		writeProblemType(w, http.StatusBadRequest, "CobVOperacaoInvalida", "the txid "+txid+" is an immediate charge's",
			bcbpix.Violacao{Propriedade: "txid", Razao: "already names a cob", Valor: txid})
	case !created && c.Status != bcbpix.CobAtiva:
		// BCB API Pix 2.9.0, CobVOperacaoInvalida: "A cobrança já existe,
		// não está ATIVA, e a presente requisição busca alterá-la". One
		// still ATIVA is answered as it stands (no revision).
		writeProblemType(w, http.StatusBadRequest, "CobVOperacaoInvalida", "the due-date charge "+txid+" exists and is "+c.Status,
			bcbpix.Violacao{Propriedade: "txid", Razao: "the charge is no longer ATIVA", Valor: txid})
	default:
		// Efí's documented answer to the PUT has no pixCopiaECola; its
		// read has (see getCobV).
		c.PixCopiaECola = ""
		writeJSON(w, http.StatusCreated, c)
	}
}

// readCobV checks a PUT /v2/cobv/{txid} and reads its terms and payer.
func (f efiFace) readCobV(txid string, req bcbpix.CobVRequest, now time.Time) (due.Terms, contract.Party, []bcbpix.Violacao) {
	terms, bad := bcbpix.DueTerms(req.Calendario, req.Valor)
	if !txidPattern.MatchString(txid) {
		bad = append(bad, bcbpix.Violacao{Propriedade: "txid", Razao: "must be 26 to 35 letters and digits", Valor: txid})
	}
	if req.Chave != f.s.cfg.PixKey {
		bad = append(bad, bcbpix.Violacao{Propriedade: bcbpix.PropCobVChave, Razao: "is not a key of this account", Valor: req.Chave})
	}
	if len([]rune(req.SolicitacaoPagador)) > 140 {
		bad = append(bad, bcbpix.Violacao{Propriedade: "cobv.solicitacaoPagador", Razao: "must be at most 140 characters"})
	}
	debtor, err := cobvDevedor(req.Devedor)
	if err != nil {
		bad = append(bad, bcbpix.Violacao{Propriedade: bcbpix.PropCobVDevedor, Razao: err.Error()})
	}
	if len(bad) > 0 {
		return terms, debtor, bad
	}
	terms.Normalize()
	var fe *due.FieldError
	if err := terms.Validate(due.Today(now)); errors.As(err, &fe) {
		return terms, debtor, []bcbpix.Violacao{{Propriedade: bcbpix.DueProperty(fe.Field), Razao: fe.Error()}}
	} else if err != nil {
		return terms, debtor, []bcbpix.Violacao{{Propriedade: "cobv.valor", Razao: err.Error()}}
	}
	return terms, debtor, nil
}

// cobvDevedor reads a due-date charge's payer: required, with a name and
// one valid cpf or cnpj.
func cobvDevedor(d *bcbpix.Devedor) (contract.Party, error) {
	if d == nil {
		return contract.Party{}, errors.New("is required")
	}
	p := contract.Party{Name: strings.TrimSpace(d.Nome)}
	doc, err := pix.NormalizeDocument(d.CPF + d.CNPJ)
	if err != nil || p.Name == "" || (d.CPF != "" && d.CNPJ != "") {
		return p, errors.New("needs a name and one valid cpf or cnpj")
	}
	p.TaxID = doc
	return p, nil
}

func (f efiFace) getCobV(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.s.records[r.PathValue("txid")]
	if rec == nil || rec.kind != contract.TypeReceivePix || rec.due == nil {
		writeProblemType(w, http.StatusNotFound, "CobVNaoEncontrada", "no due-date charge has this txid")
		return
	}
	writeJSON(w, http.StatusOK, f.cobvOf(rec, time.Now()))
}

// listCobV is the efi face's GET /v2/cobv: the due-date charges created
// between inicio and fim, of the status asked for if any, paged, each as
// GET /v2/cobv/{txid} answers it, with who paid each PIX as in the list of
// cobs (listCob).
func (f efiFace) listCobV(w http.ResponseWriter, r *http.Request) {
	params, cobs, ok := listedCharges(f, w, r, true, f.cobvOf, func(c *bcbpix.CobV) (string, []bcbpix.Pix) { return c.Status, c.Pix })
	if ok {
		writeJSON(w, http.StatusOK, bcbpix.CobsVConsultadas{Parametros: params, Cobs: cobs})
	}
}

// cobvOf renders a due-date charge as GET /v2/cobv/{txid} answers it: its
// original amount and terms, and, once paid, the PIX that paid it with the
// amount of that day. Callers hold s.mu.
func (f efiFace) cobvOf(r *record, now time.Time) bcbpix.CobV {
	terms := *r.due
	valor, _ := bcbpix.DueValor(terms) // the terms were read from a valor
	loc := f.s.location(bcbpix.TipoCobV + "/" + r.id)
	c := bcbpix.CobV{
		Calendario: bcbpix.DueCalendario(terms), Txid: r.id, Location: loc, Loc: locOf(r, loc, bcbpix.TipoCobV),
		Status: cobStatusOf(r, now), Devedor: devedorOf(r.debtor), Valor: valor,
		Recebedor: &bcbpix.Recebedor{CNPJ: sandboxCNPJ, Nome: f.s.cfg.MerchantName, Logradouro: sandboxStreet,
			Cidade: f.s.cfg.MerchantCity, UF: sandboxUF, CEP: sandboxCEP},
		Chave: f.s.cfg.PixKey, SolicitacaoPagador: r.description, PixCopiaECola: r.qrcode,
	}
	c.Calendario.Criacao = bcbpix.FormatTime(r.created)
	if r.status == contract.StatusPaid {
		c.Pix = []bcbpix.Pix{f.pixOf(r, nil)}
	}
	return c
}
