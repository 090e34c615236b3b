package bcbpix

// The list of charges (BCB API Pix 2.9.0 GET /cob, "Consultar lista de
// cobranças imediatas"): the charges created between inicio and fim (Inicio
// and Fim filter by "data de criação", both inclusive), filtered by status
// and paged as the other lists (PageParam, PerPageParam). Efí serves it as
// GET /v2/cob [Efí-SDK, pixListCharges].
const (
	PathCobList = "/v2/cob"
	StatusParam = "status"
)

// CobsConsultadas is the answer of GET /v2/cob: each charge as GET
// /v2/cob/{txid} answers it, save that Efí names, in each PIX of a
// charge's pix, who paid it (Pix.Pagador).
type CobsConsultadas struct {
	Parametros ListaParametros `json:"parametros"`
	Cobs       []Cob           `json:"cobs"`
}

// ListaParametros are a list's parameters as its answer repeats them: the
// period asked for and the page.
type ListaParametros struct {
	Inicio    string    `json:"inicio"`
	Fim       string    `json:"fim"`
	Paginacao Paginacao `json:"paginacao"`
}

// PixPagador is who paid a received PIX, as Efí names it in the list of
// charges: a name and a CPF or a CNPJ (sdk-node-apis-efi 1.2.28,
// dist/types/methods/pix.d.ts, pixListCharges: cobs[].pix[].pagador {cpf?,
// cnpj?, nome}; and the example of Efí's documentation of that route,
// "pagador": {"cnpj": "12345678000195", "nome": "Empresa de Serviços SA"}).
// The BCB's own Pix carries no payer, and Efí's charge read (GET
// /v2/cob/{txid}, pixDetailCharge) and PIX read (GET /v2/pix/{e2eid},
// pixDetailReceived) name none.
type PixPagador struct {
	CPF  string `json:"cpf,omitempty"`
	CNPJ string `json:"cnpj,omitempty"`
	Nome string `json:"nome"`
}
