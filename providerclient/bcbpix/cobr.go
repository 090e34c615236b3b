package bcbpix

// Pix Automático's cycle charges (BCB API Pix 2.9.0, tags CobR and
// WebhookCobR), as Efí serves them under /v2 [Efí's Node SDK
// sdk-node-apis-efi, src/lib/constants.js at commit 0ea4a21:
// pixCreateAutomaticChargeTxid PUT /v2/cobr/:txid, pixDetailAutomaticCharge
// GET /v2/cobr/:txid, pixUpdateAutomaticCharge PATCH /v2/cobr/:txid,
// pixRetryRequestAutomaticCharge POST /v2/cobr/:txid/retentativa/:data,
// pixConfigWebhookAutomaticCharge PUT /v2/webhookcobr]. The txid is the
// receiver's (TxId, 26 to 35 letters and digits), so a PUT repeated after
// a lost answer names the same charge. Its notifications are POSTed to
// {webhookUrl}/cobr as {"cobsr": [...]}.
const (
	PathCobR            = "/v2/cobr/{txid}"
	PathCobRRetentativa = "/v2/cobr/{txid}/retentativa/{data}"
	PathWebhookCobR     = "/v2/webhookcobr"
	// CobRWebhookSuffix is what the provider appends to the registered
	// webhookUrl when it notifies cycle charges.
	CobRWebhookSuffix = "/cobr"
)

// CobRPath is the route of the cycle charge txid.
func CobRPath(txid string) string { return "/v2/cobr/" + txid }

// CobRRetryPath is the route of a retry of the charge txid, to settle on
// day (YYYY-MM-DD).
func CobRRetryPath(txid, day string) string { return CobRPath(txid) + "/retentativa/" + day }

// Account types of a cycle charge's recebedor (DadosBancariosRecebedor.
// tipoConta).
const (
	ContaCorrente  = "CORRENTE"
	ContaPoupanca  = "POUPANCA"
	ContaPagamento = "PAGAMENTO"
)

// CobRRequest is the body of PUT /v2/cobr/{txid} (CobRSolicitada): the
// recurrence it charges, the due date, the amount, whether a due date on
// a non-business day moves to the next one (ajusteDiaUtil, required), the
// receiver's account (required) and, optionally, the payer's contact and
// a text for them (infoAdicional, ≤ 140).
type CobRRequest struct {
	IDRec         string         `json:"idRec"`
	InfoAdicional string         `json:"infoAdicional,omitempty"`
	Calendario    CobRCalendario `json:"calendario"`
	Valor         CobRValor      `json:"valor"`
	AjusteDiaUtil bool           `json:"ajusteDiaUtil"`
	Devedor       *CobRDevedor   `json:"devedor,omitempty"`
	Recebedor     CobRRecebedor  `json:"recebedor"`
}

// CobRCalendario is the charge's due date and, in answers, the day it was
// created (YYYY-MM-DD both).
type CobRCalendario struct {
	Criacao          string `json:"criacao,omitempty"`
	DataDeVencimento string `json:"dataDeVencimento"`
}

// CobRValor is the charge's amount.
type CobRValor struct {
	Original string `json:"original"`
}

// CobRDevedor is the payer as a cycle charge may describe them
// (DadosDevedorRecorrencia): a contact and an address, no name or
// document (the recurrence has those).
type CobRDevedor struct {
	Email      string `json:"email,omitempty"`
	Logradouro string `json:"logradouro,omitempty"`
	Cidade     string `json:"cidade,omitempty"`
	UF         string `json:"uf,omitempty"`
	CEP        string `json:"cep,omitempty"`
}

// CobRRecebedor is the receiver's account (DadosBancariosRecebedor: conta
// ≤ 20 and tipoConta required, agencia ≤ 4) and, in answers, who the
// receiver is (PessoaJuridicaRecorrencia: cnpj and nome).
type CobRRecebedor struct {
	CNPJ      string `json:"cnpj,omitempty"`
	Nome      string `json:"nome,omitempty"`
	Agencia   string `json:"agencia,omitempty"`
	Conta     string `json:"conta"`
	TipoConta string `json:"tipoConta"`
}

// CobR is a cycle charge as PUT and PATCH /v2/cobr/{txid} answer it
// (CobRGerada) and GET /v2/cobr/{txid} and POST …/retentativa/{data} read
// it (CobRCompleta: with the recurrence's retry policy, the attempts and
// the PIX that paid it).
type CobR struct {
	IDRec               string           `json:"idRec"`
	Txid                string           `json:"txid"`
	InfoAdicional       string           `json:"infoAdicional,omitempty"`
	Calendario          CobRCalendario   `json:"calendario"`
	Valor               CobRValor        `json:"valor"`
	AjusteDiaUtil       bool             `json:"ajusteDiaUtil"`
	Devedor             *CobRDevedor     `json:"devedor,omitempty"`
	Recebedor           CobRRecebedor    `json:"recebedor"`
	Status              string           `json:"status"`
	PoliticaRetentativa string           `json:"politicaRetentativa,omitempty"`
	Atualizacao         []RecAtualizacao `json:"atualizacao,omitempty"`
	Encerramento        *RecEncerramento `json:"encerramento,omitempty"`
	Tentativas          []CobRTentativa  `json:"tentativas,omitempty"`
	Pix                 []PixAutomatico  `json:"pix,omitempty"`
}

// CobRTentativa is one attempt at settling the charge (CobRTentativas):
// its kind (AGND, NTAG, RIFL), the day it settles on, its status
// (SOLICITADA … EXPIRADA), the end-to-end id of its payment order, its
// history and, rejected, the code (CobRTentativas' catalogue).
type CobRTentativa struct {
	DataLiquidacao string           `json:"dataLiquidacao"`
	Tipo           string           `json:"tipo"`
	Status         string           `json:"status"`
	EndToEndID     string           `json:"endToEndId"`
	Atualizacao    []RecAtualizacao `json:"atualizacao"`
	Rejeicao       *RecMotivo       `json:"rejeicao,omitempty"`
}

// PixAutomatico is a PIX that paid a cycle charge: its end-to-end id, the
// charge's txid, the amount and when it was processed (RFC 3339).
type PixAutomatico struct {
	EndToEndID  string `json:"endToEndId"`
	Txid        string `json:"txid"`
	Valor       string `json:"valor"`
	Horario     string `json:"horario"`
	InfoPagador string `json:"infoPagador,omitempty"`
}

// CobRRevisada is the body of PATCH /v2/cobr/{txid}; the receiver cancels
// with status CANCELADA, the only one it may set (CobRStatusRevisada).
type CobRRevisada struct {
	Status string `json:"status"`
}

// CobRNotification is one charge of a webhook's batch (CobRNotification):
// no amount, due date or accounts, only where it stands.
type CobRNotification struct {
	IDRec        string           `json:"idRec"`
	Txid         string           `json:"txid"`
	Status       string           `json:"status"`
	Atualizacao  []RecAtualizacao `json:"atualizacao"`
	Encerramento *RecEncerramento `json:"encerramento,omitempty"`
	Tentativas   []CobRTentativa  `json:"tentativas,omitempty"`
	Pix          []PixAutomatico  `json:"pix,omitempty"`
}

// CobRNotifications is the body a webhook receives at {webhookUrl}/cobr.
type CobRNotifications struct {
	CobsR []CobRNotification `json:"cobsr"`
}

// Notification is the charge as a webhook carries it.
func (c CobR) Notification() CobRNotification {
	return CobRNotification{IDRec: c.IDRec, Txid: c.Txid, Status: c.Status, Atualizacao: c.Atualizacao,
		Encerramento: c.Encerramento, Tentativas: c.Tentativas, Pix: c.Pix}
}
