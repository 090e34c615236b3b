package bcbpix

// Due-date charges (BCB API Pix 2.9.0, tag CobV: "cobranças com
// vencimento"), as Efí serves them under /v2 [Efí-cobv; Efí-SDK
// pixCreateDueCharge, pixDetailDueCharge, pixListDueCharges]: created by
// PUT with the client's txid, read by GET, listed between inicio and fim
// (by creation, as the list of cobs) and paged as the other lists.
const (
	PathCobV     = "/v2/cobv/{txid}"
	PathCobVList = "/v2/cobv"
)

// TipoCobV is a due-date charge's location type (PayloadLocation.tipoCob).
const TipoCobV = "cobv"

// CobVRequest is the body of PUT /v2/cobv/{txid} (CobVSolicitada): the
// devedor is required, with a name and a cpf or a cnpj.
type CobVRequest struct {
	Calendario         CalendarioV `json:"calendario"`
	Devedor            *Devedor    `json:"devedor,omitempty"`
	Valor              ValorV      `json:"valor"`
	Chave              string      `json:"chave"`
	SolicitacaoPagador string      `json:"solicitacaoPagador,omitempty"`
}

// CalendarioV is a due-date charge's calendar: its creation (answers
// only), its due date (YYYY-MM-DD) and the calendar days after it the
// charge can still be paid (validadeAposVencimento; 30 when a request
// leaves it out).
type CalendarioV struct {
	Criacao                string `json:"criacao,omitempty"`
	DataDeVencimento       string `json:"dataDeVencimento"`
	ValidadeAposVencimento *int   `json:"validadeAposVencimento,omitempty"`
}

// ValorV is a due-date charge's amounts (CobVValor): the original amount
// and, each with its modalidade, the fine (multa), interest (juros),
// rebate (abatimento) and discount (desconto). Every valorPerc is an
// amount in reais or a percentage, with two decimals.
type ValorV struct {
	Original   string     `json:"original"`
	Multa      *ValorPerc `json:"multa,omitempty"`
	Juros      *ValorPerc `json:"juros,omitempty"`
	Abatimento *ValorPerc `json:"abatimento,omitempty"`
	Desconto   *Desconto  `json:"desconto,omitempty"`
}

// ValorPerc is a fine, interest or rebate: a modalidade and its value.
type ValorPerc struct {
	Modalidade int    `json:"modalidade"`
	ValorPerc  string `json:"valorPerc"`
}

// Desconto is a discount: modalidades 1 and 2 hold dated discounts
// (descontoDataFixa, one to three), 3 to 6 a value per day early
// (valorPerc), never both.
type Desconto struct {
	Modalidade       int                `json:"modalidade"`
	DescontoDataFixa []DescontoDataFixa `json:"descontoDataFixa,omitempty"`
	ValorPerc        string             `json:"valorPerc,omitempty"`
}

// DescontoDataFixa is a discount that holds until data, inclusive.
type DescontoDataFixa struct {
	Data      string `json:"data"`
	ValorPerc string `json:"valorPerc"`
}

// Recebedor is who a due-date charge pays (DadosRecebedor): a name, a cpf
// or a cnpj, and an address.
type Recebedor struct {
	CPF        string `json:"cpf,omitempty"`
	CNPJ       string `json:"cnpj,omitempty"`
	Nome       string `json:"nome"`
	Logradouro string `json:"logradouro"`
	Cidade     string `json:"cidade"`
	UF         string `json:"uf"`
	CEP        string `json:"cep"`
}

// CobV is a due-date charge as PUT (CobVGerada) and GET (CobVCompleta)
// answer it; once paid (CONCLUIDA), pix holds the PIX that paid it, whose
// valor is what was paid on the day.
type CobV struct {
	Calendario         CalendarioV `json:"calendario"`
	Txid               string      `json:"txid"`
	Revisao            int         `json:"revisao"`
	Loc                *Loc        `json:"loc,omitempty"`
	Location           string      `json:"location,omitempty"`
	Status             string      `json:"status"`
	Devedor            *Devedor    `json:"devedor,omitempty"`
	Recebedor          *Recebedor  `json:"recebedor,omitempty"`
	Valor              ValorV      `json:"valor"`
	Chave              string      `json:"chave"`
	SolicitacaoPagador string      `json:"solicitacaoPagador,omitempty"`
	PixCopiaECola      string      `json:"pixCopiaECola,omitempty"`
	Pix                []Pix       `json:"pix,omitempty"`
}

// CobsVConsultadas is the answer of GET /v2/cobv: each due-date charge as
// GET /v2/cobv/{txid} answers it.
type CobsVConsultadas struct {
	Parametros ListaParametros `json:"parametros"`
	Cobs       []CobV          `json:"cobs"`
}
