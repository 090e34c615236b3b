package wooviapi

// Pix Automático's cycles: a subscription's installments, each with its
// recurring charge (cobr, the BCB's cobr) and the cobr's tries. Sources:
// Woovi's OpenAPI document (Installment, the installment and CobR routes,
// WebhookEventEnum) and its Pix Automático pages (github.com/woovibr/
// woovi-developers, docs/pix-automatic/), see docs/provider.md, "Recurrence
// cycles (woovi)".

// Installment routes. An installment is named by its globalID; a
// subscription's list by the subscription's globalID.
const (
	PathInstallmentByID          = "/api/v1/installments/{id}"
	PathInstallmentCobr          = "/api/v1/installments/{id}/cobr"
	PathSubscriptionInstallments = "/api/v1/subscriptions/{id}/installments"
)

// PathInstallments is the prefix of an installment's routes.
const PathInstallments = "/api/v1/installments"

// The installment's statuses (Installment.status, the state-machine
// page): SCHEDULED until its cobr is accepted, ACTIVE once the payer's
// bank accepted it, COMPLETED paid, EXPIRED past its term unpaid, CANCELED
// by hand or after an error making its cobr.
const (
	InstallmentScheduled = "SCHEDULED"
	InstallmentActive    = "ACTIVE"
	InstallmentCompleted = "COMPLETED"
	InstallmentExpired   = "EXPIRED"
	InstallmentCanceled  = "CANCELED"
)

// The cobr's statuses (Installment.cobr.status): CREATED, ACTIVE (accepted
// by the payer's bank), CONCLUDED (the state-machine page) or COMPLETED
// (the webhook pages' examples) once paid, FAILED_TRY after a try failed
// while others may follow, REJECTED once none is left, CANCELED. EXPIRED
// is named by no page of Woovi's; it is read as the installment's.
const (
	CobrCreated   = "CREATED"
	CobrActive    = "ACTIVE"
	CobrConcluded = "CONCLUDED"
	CobrCompleted = "COMPLETED"
	CobrFailedTry = "FAILED_TRY"
	CobrRejected  = "REJECTED"
	CobrCanceled  = "CANCELED"
	CobrExpired   = "EXPIRED"
)

// The statuses of a cobr's try (tries[].tryStatus).
const (
	TryRequested = "REQUESTED"
	TryScheduled = "SCHEDULED"
	TryPaid      = "PAID"
	TryRejected  = "REJECTED"
)

// Webhook events of a cycle (WebhookEventEnum): its cobr created, approved
// by the payer's bank, paid, rejected once every try failed; a try asked
// (a retry) and a try rejected.
const (
	EventCobrCreated      = "PIX_AUTOMATIC_COBR_CREATED"
	EventCobrApproved     = "PIX_AUTOMATIC_COBR_APPROVED"
	EventCobrCompleted    = "PIX_AUTOMATIC_COBR_COMPLETED"
	EventCobrRejected     = "PIX_AUTOMATIC_COBR_REJECTED"
	EventCobrTryRequested = "PIX_AUTOMATIC_COBR_TRY_REQUESTED"
	EventCobrTryRejected  = "PIX_AUTOMATIC_COBR_TRY_REJECTED"
)

// Installment is one installment of a subscription (Installment): its
// globalID, its subscription's (paymentSubscriptionGlobalID) and that
// subscription's correlationID, its number from 1, the day it is charged
// (dateGenerateCharge, a full UTC date) and its cobr once made. Value is
// in centavos; Expiration in seconds.
type Installment struct {
	GlobalID                    string `json:"globalID"`
	PaymentSubscriptionGlobalID string `json:"paymentSubscriptionGlobalID,omitempty"`
	CorrelationID               string `json:"correlationID,omitempty"`
	InstallmentNumber           int    `json:"installmentNumber"`
	DateGenerateCharge          string `json:"dateGenerateCharge"`
	Expiration                  int64  `json:"expiration,omitempty"`
	Value                       int64  `json:"value"`
	Status                      string `json:"status"`
	CreatedAt                   string `json:"createdAt,omitempty"`
	Cobr                        *Cobr  `json:"cobr"`
}

// Cobr is an installment's recurring charge: its own id (identifierId),
// the BCB's id of the recurrence, its status, the end-to-end id of the
// PIX that paid it, why it was rejected, and its tries.
type Cobr struct {
	IdentifierID  string    `json:"identifierId,omitempty"`
	RecurrencyID  string    `json:"recurrencyId,omitempty"`
	InstallmentID string    `json:"installmentId,omitempty"`
	Status        string    `json:"status"`
	Value         int64     `json:"value"`
	EndToEndID    string    `json:"endToEndId,omitempty"`
	RejectCode    string    `json:"rejectCode,omitempty"`
	Tries         []CobrTry `json:"tries,omitempty"`
	PaymentDate   string    `json:"paymentDate,omitempty"`
	ChargeDate    string    `json:"chargeDate,omitempty"`
	ExpiryDate    string    `json:"expiryDate,omitempty"`
	Description   string    `json:"description,omitempty"`
	CreatedAt     string    `json:"createdAt,omitempty"`
}

// CobrTry is one try at settling a cobr: its status, its kind (the BCB's
// tentativas[].tipo, finalityPurpose), the day asked
// (requestedExecutionDate) and the code of a rejection.
type CobrTry struct {
	TryStatus              string `json:"tryStatus"`
	FinalityPurpose        string `json:"finalityPurpose,omitempty"`
	RejectCode             string `json:"rejectCode,omitempty"`
	Value                  int64  `json:"value,omitempty"`
	RequestedExecutionDate string `json:"requestedExecutionDate,omitempty"`
	CreatedAt              string `json:"createdAt,omitempty"`
	UpdatedAt              string `json:"updatedAt,omitempty"`
}

// InstallmentAnswer is the answer of GET /api/v1/installments/{id} as the
// document gives it; Woovi's routes page shows the installment's members
// unwrapped, which InstallmentWebhook reads.
type InstallmentAnswer struct {
	Installment *Installment `json:"installment"`
}

// InstallmentList is the answer of GET
// /api/v1/subscriptions/{id}/installments.
type InstallmentList struct {
	Installments []Installment `json:"installments"`
	PageInfo     PageInfo      `json:"pageInfo"`
}

// PageInfo is a list's page (Pagination).
type PageInfo struct {
	Skip            int  `json:"skip"`
	Limit           int  `json:"limit"`
	TotalCount      int  `json:"totalCount"`
	HasPreviousPage bool `json:"hasPreviousPage"`
	HasNextPage     bool `json:"hasNextPage"`
}

// CobrRequest is the body of POST /api/v1/installments/{id}/cobr: the
// cobr's value in centavos, optional (the installment's otherwise).
type CobrRequest struct {
	Value int64 `json:"value,omitempty"`
}

// InstallmentWebhook is a PIX_AUTOMATIC_COBR webhook's body: the event
// beside the installment's own members.
type InstallmentWebhook struct {
	Event string `json:"event"`
	Installment
}
