// Package bcbpix is the Banco Central do Brasil's API Pix (the bacen/pix-api
// specification, openapi.yaml 2.9.0, vendored in testdata/ with its
// licence) as Efí serves it, with Efí's own send, send-read and balance
// routes: the wire types of the requests, answers and notifications
// PixGate uses, written once for the efi connector and the sandbox's efi
// face.
//
// Amounts are strings of reais with two decimals ("15.50", pattern
// \d{1,10}\.\d{2}); dates are RFC 3339.
package bcbpix

import (
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// Routes (relative to the API's base URL). BCB API Pix 2.9.0: cob,
// pix, devolucao, webhook. Efí (dev.efipay.com.br, and the routes table of
// its Node SDK, sdk-node-apis-efi 1.2.28 src/lib/constants.js): token,
// send, send-read by idEnvio, balance.
const (
	PathToken     = "/oauth/token"
	PathCob       = "/v2/cob/{txid}"
	PathPix       = "/v2/pix/{e2eid}"
	PathDevolucao = "/v2/pix/{e2eid}/devolucao/{id}"
	PathWebhook   = "/v2/webhook/{chave}"
	PathSend      = "/v3/gn/pix/{idEnvio}"
	PathSent      = "/v2/gn/pix/enviados/id-envio/{idEnvio}"
	PathBalance   = "/v2/gn/saldo"
)

// Lists a statement is read from. BCB API Pix 2.9.0: GET /pix, the PIX
// received between inicio and fim (PixConsultados), each with its
// devolucoes, filtered by devolucaoPresente and paged by
// paginacao.paginaAtual (from 0) and paginacao.itensPorPagina (at most
// 1000). Efí (sdk-node-apis-efi 1.2.28, dist/cjs/index.cjs: pixSendList,
// GET /v2/gn/pix/enviados with inicio, fim and the same paging): the PIX
// the account sent.
const (
	PathPixList       = "/v2/pix"
	PathSentList      = "/v2/gn/pix/enviados"
	PageParam         = "paginacao.paginaAtual"
	PerPageParam      = "paginacao.itensPorPagina"
	RefundsParam      = "devolucaoPresente"
	MaxItensPorPagina = 1000
)

// PixConsultados is the answer of GET /v2/pix.
type PixConsultados struct {
	Parametros struct {
		Inicio    string    `json:"inicio"`
		Fim       string    `json:"fim"`
		Paginacao Paginacao `json:"paginacao"`
	} `json:"parametros"`
	Pix []Pix `json:"pix"`
}

// SentList is the answer of GET /v2/gn/pix/enviados in the list shape the
// BCB's lists have; Efí's SDK types the answer as the bare array of sends,
// which the efi connector reads as well.
type SentList struct {
	Parametros struct {
		Paginacao Paginacao `json:"paginacao"`
	} `json:"parametros"`
	Pix []Sent `json:"pix"`
}

// Charge (cob) statuses.
const (
	CobAtiva           = "ATIVA"
	CobConcluida       = "CONCLUIDA"
	CobRemovidaPSP     = "REMOVIDA_PELO_PSP"
	CobRemovidaUsuario = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
)

// Refund (devolucao) and send statuses. A devolucao ends DEVOLVIDO or
// NAO_REALIZADO (BCB); an Efí send ends REALIZADO or NAO_REALIZADO
// (dev.efipay.com.br/docs/api-pix/status).
const (
	EmProcessamento = "EM_PROCESSAMENTO"
	Devolvido       = "DEVOLVIDO"
	Realizado       = "REALIZADO"
	NaoRealizado    = "NAO_REALIZADO"
)

// TipoSolicitacao marks, in Efí's webhook, a PIX the account sent.
const TipoSolicitacao = "SOLICITACAO"

// CobRequest is the body of PUT /v2/cob/{txid} (CobSolicitada).
type CobRequest struct {
	Calendario         Calendario `json:"calendario"`
	Devedor            *Devedor   `json:"devedor,omitempty"`
	Valor              Valor      `json:"valor"`
	Chave              string     `json:"chave"`
	SolicitacaoPagador string     `json:"solicitacaoPagador,omitempty"`
}

// Calendario is a charge's creation and validity in seconds.
type Calendario struct {
	Criacao   string `json:"criacao,omitempty"`
	Expiracao int    `json:"expiracao,omitempty"`
}

// Devedor is the expected payer: a person (cpf) or a company (cnpj).
type Devedor struct {
	CPF  string `json:"cpf,omitempty"`
	CNPJ string `json:"cnpj,omitempty"`
	Nome string `json:"nome"`
}

// Valor is a charge's amount.
type Valor struct {
	Original string `json:"original"`
}

// Cob is a charge as PUT (CobGerada) and GET (CobCompleta) answer it.
type Cob struct {
	Calendario         Calendario `json:"calendario"`
	Txid               string     `json:"txid"`
	Revisao            int        `json:"revisao"`
	Loc                *Loc       `json:"loc,omitempty"`
	Location           string     `json:"location,omitempty"`
	Status             string     `json:"status"`
	Devedor            *Devedor   `json:"devedor,omitempty"`
	Valor              Valor      `json:"valor"`
	Chave              string     `json:"chave"`
	SolicitacaoPagador string     `json:"solicitacaoPagador,omitempty"`
	PixCopiaECola      string     `json:"pixCopiaECola,omitempty"`
	Pix                []Pix      `json:"pix,omitempty"`
}

// Loc is the payload location of a charge's QR code.
type Loc struct {
	ID       int64  `json:"id"`
	Txid     string `json:"txid,omitempty"`
	Location string `json:"location"`
	TipoCob  string `json:"tipoCob"`
	Criacao  string `json:"criacao"`
}

// Pix is a received PIX (GET /v2/pix/{e2eid}, a cob's pix, an item of a
// webhook's batch). Efí's webhook also reports the PIX the account sent
// with Tipo SOLICITACAO, their Status and GnExtras.IDEnvio.
type Pix struct {
	EndToEndID  string      `json:"endToEndId"`
	Txid        string      `json:"txid,omitempty"`
	Valor       string      `json:"valor"`
	Chave       string      `json:"chave,omitempty"`
	Horario     string      `json:"horario"`
	InfoPagador string      `json:"infoPagador,omitempty"`
	Devolucoes  []Devolucao `json:"devolucoes,omitempty"`
	Tipo        string      `json:"tipo,omitempty"`
	Status      string      `json:"status,omitempty"`
	GnExtras    *GnExtras   `json:"gnExtras,omitempty"`
	Pagador     *PixPagador `json:"pagador,omitempty"` // in Efí's list of charges only (see PixPagador)
}

// GnExtras is Efí's addition to a webhook item of a PIX sent.
type GnExtras struct {
	IDEnvio string `json:"idEnvio,omitempty"`
}

// Devolucao is a refund (PUT and GET /v2/pix/{e2eid}/devolucao/{id}).
type Devolucao struct {
	ID        string  `json:"id"`
	RtrID     string  `json:"rtrId"`
	Valor     string  `json:"valor"`
	Natureza  string  `json:"natureza,omitempty"`
	Descricao string  `json:"descricao,omitempty"`
	Horario   Horario `json:"horario"`
	Status    string  `json:"status"`
	Motivo    string  `json:"motivo,omitempty"`
}

// Horario is when a refund or a send was asked for and settled.
type Horario struct {
	Solicitacao string `json:"solicitacao,omitempty"`
	Liquidacao  string `json:"liquidacao,omitempty"`
}

// DevolucaoRequest is the body of PUT /v2/pix/{e2eid}/devolucao/{id}.
type DevolucaoRequest struct {
	Valor     string `json:"valor"`
	Natureza  string `json:"natureza,omitempty"`
	Descricao string `json:"descricao,omitempty"`
}

// WebhookRequest is the body of PUT /v2/webhook/{chave}.
type WebhookRequest struct {
	WebhookURL string `json:"webhookUrl"`
}

// Notification is the body a webhook receives at {webhookUrl}/pix.
type Notification struct {
	Pix []Pix `json:"pix"`
}

// SendRequest is the body of Efí's PUT /v3/gn/pix/{idEnvio}.
type SendRequest struct {
	Valor      string     `json:"valor"`
	Pagador    Pagador    `json:"pagador"`
	Favorecido Favorecido `json:"favorecido"`
}

// Pagador is the sending account: its PIX key and a message.
type Pagador struct {
	Chave       string `json:"chave"`
	InfoPagador string `json:"infoPagador,omitempty"`
}

// Favorecido is who receives a send: a key, optionally checked against a
// tax id.
type Favorecido struct {
	Chave string `json:"chave,omitempty"`
	CPF   string `json:"cpf,omitempty"`
	CNPJ  string `json:"cnpj,omitempty"`
}

// SendAnswer is Efí's answer to a send.
type SendAnswer struct {
	IDEnvio string  `json:"idEnvio"`
	E2eID   string  `json:"e2eId"`
	Valor   string  `json:"valor"`
	Horario Horario `json:"horario"`
	Status  string  `json:"status"`
}

// Sent is a send as GET /v2/gn/pix/enviados/id-envio/{idEnvio} answers it.
type Sent struct {
	EndToEndID  string         `json:"endToEndId"`
	IDEnvio     string         `json:"idEnvio"`
	Valor       string         `json:"valor"`
	Chave       string         `json:"chave"`
	Status      string         `json:"status"`
	InfoPagador string         `json:"infoPagador,omitempty"`
	Horario     Horario        `json:"horario"`
	Favorecido  SentFavorecido `json:"favorecido"`
}

// SentFavorecido is who received a send.
type SentFavorecido struct {
	Chave         string         `json:"chave,omitempty"`
	Identificacao *Identificacao `json:"identificacao,omitempty"`
}

// Identificacao names a send's receiver.
type Identificacao struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf,omitempty"`
	CNPJ string `json:"cnpj,omitempty"`
}

// Saldo is Efí's GET /v2/gn/saldo answer.
type Saldo struct {
	Saldo string `json:"saldo"`
}

// Problem is the BCB's error body (RFC 7807, schema Problema).
type Problem struct {
	Type      string     `json:"type"`
	Title     string     `json:"title"`
	Status    int        `json:"status"`
	Detail    string     `json:"detail,omitempty"`
	Violacoes []Violacao `json:"violacoes,omitempty"`
}

// Violacao names a field a request got wrong.
type Violacao struct {
	Razao       string `json:"razao,omitempty"`
	Propriedade string `json:"propriedade,omitempty"`
	Valor       string `json:"valor,omitempty"`
}

// EfiError is the error body some of Efí's routes answer instead of a
// Problem.
type EfiError struct {
	Nome     string `json:"nome"`
	Mensagem string `json:"mensagem"`
}

// FormatAmount renders m as a valor ("15.50").
func FormatAmount(m money.Money) string { return m.String() }

// ParseAmount reads a valor exactly.
func ParseAmount(s string) (money.Money, error) { return money.Parse(s) }

// FormatTime renders t as the API's dates do (RFC 3339, UTC, milliseconds).
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// ParseTime reads an API date; anything else is the zero time.
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Efí's MED routes (the routes table and the types of its Node SDK,
// sdk-node-apis-efi 1.2.28: medList GET /v2/gn/infracoes with inicio and
// fim, medDefense POST /v2/gn/infracoes/:idInfracao/defesa).
const (
	PathInfracoes = "/v2/gn/infracoes"
	PathDefesa    = "/v2/gn/infracoes/{idInfracao}/defesa"
)

// Infraction (infracao) statuses, as Efí's SDK types them.
const (
	InfracaoAberta    = "ABERTA"
	InfracaoEmDefesa  = "EM_DEFESA"
	InfracaoAceita    = "ACEITA"
	InfracaoRejeitada = "REJEITADA"
	InfracaoCancelada = "CANCELADA_EFI"
	DefesaRejeitado   = "rejeitado" // the holder contests the infraction
	NaturezaMedFraude = "MED_FRAUDE"
	NaturezaMedOperac = "MED_OPERACIONAL"
	NaturezaOriginal  = "ORIGINAL"
)

// InfracoesPageParam is the list's page parameter (the BCB API Pix's
// paging convention, which Efí's list answers with parametros.paginacao).
const InfracoesPageParam = "paginacao.paginaAtual"

// Infracao is one MED infraction as GET /v2/gn/infracoes lists it.
type Infracao struct {
	IDInfracao            string       `json:"idInfracao"`
	EndToEndID            string       `json:"endToEndId"`
	Protocolo             string       `json:"protocolo,omitempty"`
	DataTransacao         string       `json:"dataTransacao,omitempty"`
	Valor                 string       `json:"valor"`
	Chave                 string       `json:"chave,omitempty"`
	Status                string       `json:"status"`
	Razao                 string       `json:"razao,omitempty"`
	TipoSituacao          string       `json:"tipoSituacao,omitempty"`
	Comentario            string       `json:"comentario,omitempty"`
	Defesa                string       `json:"defesa,omitempty"`
	JustificativaAnalista string       `json:"justificativaAnalista,omitempty"`
	DadosAnalise          DadosAnalise `json:"dadosAnalise"`
	CriadoEm              string       `json:"criadoEm,omitempty"`
	AtualizadoEm          string       `json:"atualizadoEm,omitempty"`
}

// DadosAnalise is an infraction's analysis dates.
type DadosAnalise struct {
	Abertura          string `json:"abertura,omitempty"`
	PrazoFinalizacao  string `json:"prazoFinalizacao,omitempty"`
	RecebimentoDefesa string `json:"recebimentoDefesa,omitempty"`
	Finalizacao       string `json:"finalizacao,omitempty"`
}

// Infracoes is the answer of GET /v2/gn/infracoes.
type Infracoes struct {
	Parametros struct {
		Inicio    string    `json:"inicio"`
		Fim       string    `json:"fim"`
		Paginacao Paginacao `json:"paginacao"`
	} `json:"parametros"`
	Infracoes []Infracao `json:"infracoes"`
}

// Paginacao is a list's page.
type Paginacao struct {
	PaginaAtual            int `json:"paginaAtual"`
	ItensPorPagina         int `json:"itensPorPagina"`
	QuantidadeDePaginas    int `json:"quantidadeDePaginas"`
	QuantidadeTotalDeItens int `json:"quantidadeTotalDeItens"`
}

// DefesaRequest is the body of POST /v2/gn/infracoes/{idInfracao}/defesa:
// the holder's analysis ("aceito" or "rejeitado") and its justification.
type DefesaRequest struct {
	Analise       string `json:"analise"`
	Justificativa string `json:"justificativa"`
}
