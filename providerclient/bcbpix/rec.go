package bcbpix

// Pix Automático's recurrences (BCB API Pix 2.9.0, tags Rec, SolicRec,
// PayloadLocationRec and WebhookRec), as Efí serves them under /v2
// [Efí-SDK 1.2.28: pixCreateLocationRecurrenceAutomatic POST /v2/locrec,
// pixCreateRecurrenceAutomatic POST /v2/rec, pixListRecurrenceAutomatic
// GET /v2/rec, pixDetailRecurrenceAutomatic GET /v2/rec/:idRec,
// pixUpdateRecurrenceAutomatic PATCH /v2/rec/:idRec,
// pixCreateRequestRecurrenceAutomatic POST /v2/solicrec,
// pixConfigWebhookRecurrenceAutomatic PUT /v2/webhookrec]. A recurrence
// is created without a client id: the receiver's bank assigns its idRec.
// Its notifications are POSTed to {webhookUrl}/rec as {"recs": [...]}.
const (
	PathLocRec     = "/v2/locrec"
	PathRec        = "/v2/rec/{idRec}"
	PathRecList    = "/v2/rec"
	PathSolicRec   = "/v2/solicrec"
	PathWebhookRec = "/v2/webhookrec"
	// RecWebhookSuffix is what the provider appends to the registered
	// webhookUrl when it notifies recurrences.
	RecWebhookSuffix = "/rec"
)

// JornadaAguardando is a recurrence's ativacao.tipoJornada until the payer
// consents by one of the four journeys (RecAtivacao).
const JornadaAguardando = "AGUARDANDO_DEFINICAO"

// Solicitation (solicrec) statuses (SolicRecStatus).
const (
	SolicCriada    = "CRIADA"
	SolicEnviada   = "ENVIADA"
	SolicRecebida  = "RECEBIDA"
	SolicRejeitada = "REJEITADA"
	SolicAceita    = "ACEITA"
	SolicExpirada  = "EXPIRADA"
	SolicCancelada = "CANCELADA"
)

// LocRec is a recurrence's payload location: the answer of POST
// /v2/locrec (PayloadLocationRecGerada, sent with no body) and a
// recurrence's loc (PayloadLocationRecCompleta, with the idRec it serves).
type LocRec struct {
	ID       int64  `json:"id"`
	Location string `json:"location"`
	Criacao  string `json:"criacao"`
	IDRec    string `json:"idRec,omitempty"`
}

// RecRequest is the body of POST /v2/rec (RecSolicitada): what the payer
// consents to, for a QR journey the location (loc) its QR Code points at,
// and for journey 3 the immediate charge paid with the consent (ativacao,
// RecAtivacaoSolicitada).
type RecRequest struct {
	Vinculo             RecVinculo             `json:"vinculo"`
	Calendario          RecCalendario          `json:"calendario"`
	Valor               *RecValor              `json:"valor,omitempty"`
	PoliticaRetentativa string                 `json:"politicaRetentativa"`
	Loc                 int64                  `json:"loc,omitempty"`
	Ativacao            *RecAtivacaoSolicitada `json:"ativacao,omitempty"`
}

// RecAtivacaoSolicitada is a request's ativacao: the journey's data alone
// (the journey itself is the payer's to choose).
type RecAtivacaoSolicitada struct {
	DadosJornada RecDadosJornada `json:"dadosJornada"`
}

// RecDadosJornada is journey 3's data: the txid of the immediate charge
// (cob) whose composite QR Code carries the recurrence, "de preenchimento
// obrigatório quando utilizada a Jornada 3" (RecAtivacao).
type RecDadosJornada struct {
	Txid string `json:"txid"`
}

// RecVinculo is what the recurrence is for: the contract (contrato, ≤ 35,
// required), who pays (devedor) and a text the payer recognises (objeto,
// ≤ 35).
type RecVinculo struct {
	Objeto   string    `json:"objeto,omitempty"`
	Devedor  RecPessoa `json:"devedor"`
	Contrato string    `json:"contrato"`
}

// RecPessoa is a person (cpf) or a company (cnpj) with a name (≤ 140):
// PessoaFisicaRecorrencia, PessoaJuridicaRecorrencia.
type RecPessoa struct {
	CPF  string `json:"cpf,omitempty"`
	CNPJ string `json:"cnpj,omitempty"`
	Nome string `json:"nome"`
}

// RecCalendario is the recurrence's calendar: the first payment's
// estimated day, the last day (none: no end) and the periodicity
// (SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL, ANUAL). Days are YYYY-MM-DD.
type RecCalendario struct {
	DataInicial   string `json:"dataInicial"`
	DataFinal     string `json:"dataFinal,omitempty"`
	Periodicidade string `json:"periodicidade"`
}

// RecValor is a fixed amount (valorRec) or a variable amount's floor
// (valorMinimoRecebedor), never both.
type RecValor struct {
	ValorRec             string `json:"valorRec,omitempty"`
	ValorMinimoRecebedor string `json:"valorMinimoRecebedor,omitempty"`
}

// Rec is a recurrence as POST and PATCH /v2/rec answer it (RecGerada),
// GET /v2/rec/{idRec} reads it (RecCompleta, with the payer once known,
// its solicitations and, for a QR journey, dadosQR) and GET /v2/rec lists
// it.
type Rec struct {
	IDRec               string           `json:"idRec"`
	Vinculo             RecVinculo       `json:"vinculo"`
	Calendario          RecCalendario    `json:"calendario"`
	Valor               *RecValor        `json:"valor,omitempty"`
	PoliticaRetentativa string           `json:"politicaRetentativa"`
	Recebedor           RecRecebedor     `json:"recebedor"`
	Pagador             *RecPagador      `json:"pagador,omitempty"`
	Status              string           `json:"status"`
	Loc                 *LocRec          `json:"loc,omitempty"`
	Atualizacao         []RecAtualizacao `json:"atualizacao"`
	Encerramento        *RecEncerramento `json:"encerramento,omitempty"`
	Solicitacao         []SolicRec       `json:"solicitacao,omitempty"`
	Ativacao            *RecAtivacao     `json:"ativacao,omitempty"`
	DadosQR             *DadosQR         `json:"dadosQR,omitempty"`
}

// RecRecebedor is who receives (a company), with its participant's ISPB
// in a solicitation's recPayload.
type RecRecebedor struct {
	CNPJ             string `json:"cnpj"`
	Nome             string `json:"nome"`
	ISPBParticipante string `json:"ispbParticipante,omitempty"`
}

// RecPagador is who consented: their participant's ISPB and their cpf or
// cnpj.
type RecPagador struct {
	ISPBParticipante string `json:"ispbParticipante"`
	CPF              string `json:"cpf,omitempty"`
	CNPJ             string `json:"cnpj,omitempty"`
}

// RecAtualizacao is one status the recurrence (or a solicitation)
// reached, and when (RFC 3339).
type RecAtualizacao struct {
	Status string `json:"status"`
	Data   string `json:"data"`
}

// RecEncerramento is why a recurrence ended: refused by the payer
// (rejeicao, codes AP13, AP14) or cancelled (cancelamento, by solicitante
// PSP_PAGADOR, USUARIO_PAGADOR, PSP_RECEBEDOR or USUARIO_RECEBEDOR, with a
// code ACCL … SLDB).
type RecEncerramento struct {
	Rejeicao     *RecMotivo       `json:"rejeicao,omitempty"`
	Cancelamento *RecCancelamento `json:"cancelamento,omitempty"`
}

// RecMotivo is a code of the BCB's catalogue and its description (≤ 400).
type RecMotivo struct {
	Codigo    string `json:"codigo"`
	Descricao string `json:"descricao"`
}

// RecCancelamento is a cancellation: who asked, the code and its
// description.
type RecCancelamento struct {
	Solicitante string `json:"solicitante"`
	RecMotivo
}

// RecAtivacao is how the payer consented (tipoJornada JORNADA_1 … 4, or
// JornadaAguardando before they did) and, for journey 3, its cob
// (dadosJornada.txid).
type RecAtivacao struct {
	TipoJornada  string           `json:"tipoJornada"`
	DadosJornada *RecDadosJornada `json:"dadosJornada,omitempty"`
}

// RecTxidParam is the query parameter of GET /v2/rec/{idRec} naming a
// cob (journey 3) or cobv (journey 4): its dadosQR is then the composite
// BR Code of that charge and the recurrence, jornada JORNADA_3 or
// JORNADA_4 (RecCompleta.dadosQR).
const RecTxidParam = "txid"

// DadosQR is a QR journey's BR Code, read with GET /v2/rec/{idRec}
// (?txid= for the composite one of journeys 3 and 4).
type DadosQR struct {
	Jornada       string `json:"jornada,omitempty"`
	PixCopiaECola string `json:"pixCopiaECola,omitempty"`
}

// RecRevisada is the body of PATCH /v2/rec/{idRec}; the receiver cancels
// with status CANCELADA.
type RecRevisada struct {
	Status string `json:"status"`
}

// RecList parameters of GET /v2/rec (besides inicio and fim, and the
// paging of the other lists): the devedor's document.
const (
	RecListCPF  = "cpf"
	RecListCNPJ = "cnpj"
)

// RecsConsultadas is the answer of GET /v2/rec.
type RecsConsultadas struct {
	Parametros struct {
		Inicio    string    `json:"inicio"`
		Fim       string    `json:"fim"`
		Paginacao Paginacao `json:"paginacao"`
	} `json:"parametros"`
	Recs []Rec `json:"recs"`
}

// SolicRecRequest is the body of POST /v2/solicrec (SolicRecSolicitada):
// the consent request pushed to the payer's account (journey 1), open
// until calendario.dataExpiracaoSolicitacao.
type SolicRecRequest struct {
	IDRec        string        `json:"idRec"`
	Calendario   SolicRecPrazo `json:"calendario"`
	Destinatario SolicRecConta `json:"destinatario"`
}

// SolicRecPrazo is when a solicitation stops waiting (RFC 3339).
type SolicRecPrazo struct {
	DataExpiracaoSolicitacao string `json:"dataExpiracaoSolicitacao"`
}

// SolicRecConta is the payer's account a solicitation goes to: the
// participant's ISPB, the branch (≤ 4), the account (≤ 20) and the
// holder's cpf or cnpj.
type SolicRecConta struct {
	Agencia          string `json:"agencia,omitempty"`
	Conta            string `json:"conta"`
	ISPBParticipante string `json:"ispbParticipante"`
	CPF              string `json:"cpf,omitempty"`
	CNPJ             string `json:"cnpj,omitempty"`
}

// SolicRec is a solicitation as POST /v2/solicrec answers it
// (SolicRecCompleta, with the recurrence it asks for in recPayload) and a
// recurrence's read lists it.
type SolicRec struct {
	IDSolicRec   string           `json:"idSolicRec"`
	IDRec        string           `json:"idRec"`
	Calendario   SolicRecPrazo    `json:"calendario"`
	Status       string           `json:"status"`
	Destinatario SolicRecConta    `json:"destinatario"`
	Atualizacao  []RecAtualizacao `json:"atualizacao"`
	RecPayload   *Rec             `json:"recPayload,omitempty"`
}

// RecNotification is one recurrence of a webhook's batch
// (RecNotification): its idRec, its status and how it got there.
type RecNotification struct {
	IDRec        string           `json:"idRec"`
	Status       string           `json:"status"`
	Atualizacao  []RecAtualizacao `json:"atualizacao"`
	Encerramento *RecEncerramento `json:"encerramento,omitempty"`
	Ativacao     *RecAtivacao     `json:"ativacao,omitempty"`
}

// RecNotifications is the body a webhook receives at {webhookUrl}/rec.
type RecNotifications struct {
	Recs []RecNotification `json:"recs"`
}
