package efi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// A day's statement, from the lists the contract publishes. Efí's
// reconciliation report (POST /v2/gn/relatorios/extrato-conciliacao, then
// GET /v2/gn/relatorios/{id}: sdk-node-apis-efi 1.2.28) is a CSV whose
// columns Efí does not publish, so the connector pages through three
// lists instead, one after the other:
//
//   - "r": GET /v2/pix over the day: the PIX received (charges paid);
//   - "d": GET /v2/pix with devolucaoPresente over the refund window
//     before the day: the received PIX with devoluções, whose devoluções
//     settled (DEVOLVIDO) on the day are refunds or MED returns; a PIX is
//     refundable for 90 days, so older ones have none;
//   - "s": GET /v2/gn/pix/enviados from an hour before the day: the PIX
//     sent, those settled (REALIZADO) on the day.
//
// The lists carry no balance: the pages have none (Capabilities
// StatementBalances false). A cursor is "<list>:<page>".

// refundWindow is how far back the "d" list looks.
const refundWindow = 91 * 24 * time.Hour

// sendLead is how long before the day the "s" list starts: a send
// requested late the day before may settle on the day.
const sendLead = time.Hour

const statementPerPage = bcbpix.MaxItensPorPagina

func (c *connector) Statement(ctx context.Context, req providerclient.StatementRequest) (*providerclient.StatementPage, error) {
	list, page, err := parseCursor(req.Cursor)
	if err != nil {
		return nil, err
	}
	start, end := req.Day.Start(), req.Day.End()
	out := &providerclient.StatementPage{}
	var more bool
	switch list {
	case "r":
		more, err = c.receivedPage(ctx, start, end, page, false, func(p bcbpix.Pix) {
			if t := bcbpix.ParseTime(p.Horario); !t.Before(start) && t.Before(end) {
				out.Lines = append(out.Lines, receivedLine(p))
			}
		})
	case "d":
		more, err = c.receivedPage(ctx, start.Add(-refundWindow), end, page, true, func(p bcbpix.Pix) {
			for _, d := range p.Devolucoes {
				if t := bcbpix.ParseTime(d.Horario.Liquidacao); d.Status == bcbpix.Devolvido && !t.Before(start) && t.Before(end) {
					out.Lines = append(out.Lines, refundLine(d))
				}
			}
		})
	case "s":
		more, err = c.sentPage(ctx, start.Add(-sendLead), end, page, func(s bcbpix.Sent) {
			if t := bcbpix.ParseTime(s.Horario.Liquidacao); s.Status == bcbpix.Realizado && !t.Before(start) && t.Before(end) {
				out.Lines = append(out.Lines, sentLine(s))
			}
		})
	}
	if err != nil {
		return nil, err
	}
	switch {
	case more:
		out.Next = list + ":" + strconv.Itoa(page+1)
	case list == "r":
		out.Next = "d:0"
	case list == "d":
		out.Next = "s:0"
	}
	return out, nil
}

func parseCursor(cursor string) (list string, page int, err error) {
	if cursor == "" {
		return "r", 0, nil
	}
	list, n, _ := strings.Cut(cursor, ":")
	page, convErr := strconv.Atoi(n)
	if convErr != nil || page < 0 || (list != "r" && list != "d" && list != "s") {
		return "", 0, &providerclient.Error{Op: providerclient.OpStatement, Kind: providerclient.ErrRejected, Message: "bad cursor " + strconv.Quote(cursor)}
	}
	return list, page, nil
}

// receivedPage reads one page of GET /v2/pix between from and to; more
// says whether another page follows.
func (c *connector) receivedPage(ctx context.Context, from, to time.Time, page int, refunds bool, each func(bcbpix.Pix)) (more bool, err error) {
	q := listQuery(from, to, page)
	if refunds {
		q.Set(bcbpix.RefundsParam, "true")
	}
	res, err := c.call(ctx, providerclient.OpStatement, http.MethodGet, bcbpix.PathPixList+"?"+q.Encode(), nil)
	if err != nil {
		return false, err
	}
	var ans bcbpix.PixConsultados
	if err := decode(providerclient.OpStatement, res, &ans); err != nil {
		return false, err
	}
	for _, p := range ans.Pix {
		each(p)
	}
	return morePages(ans.Parametros.Paginacao, page, len(ans.Pix)), nil
}

// sentPage reads one page of GET /v2/gn/pix/enviados, in the BCB's list
// shape or as the bare array Efí's SDK types.
func (c *connector) sentPage(ctx context.Context, from, to time.Time, page int, each func(bcbpix.Sent)) (more bool, err error) {
	res, err := c.call(ctx, providerclient.OpStatement, http.MethodGet, bcbpix.PathSentList+"?"+listQuery(from, to, page).Encode(), nil)
	if err != nil {
		return false, err
	}
	var raw json.RawMessage
	if err := decode(providerclient.OpStatement, res, &raw); err != nil {
		return false, err
	}
	var ans bcbpix.SentList
	if strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
		err = json.Unmarshal(raw, &ans.Pix)
	} else {
		err = json.Unmarshal(raw, &ans)
	}
	if err != nil {
		return false, &providerclient.Error{Op: providerclient.OpStatement, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "unreadable list of sends", Err: err}
	}
	for _, s := range ans.Pix {
		each(s)
	}
	return morePages(ans.Parametros.Paginacao, page, len(ans.Pix)), nil
}

func listQuery(from, to time.Time, page int) url.Values {
	q := url.Values{"inicio": {bcbpix.FormatTime(from)}, "fim": {bcbpix.FormatTime(to)}}
	q.Set(bcbpix.PageParam, strconv.Itoa(page))
	q.Set(bcbpix.PerPageParam, strconv.Itoa(statementPerPage))
	return q
}

// morePages: the answer's paging says so, or, without one, the page came
// back full.
func morePages(p bcbpix.Paginacao, page, got int) bool {
	if p.QuantidadeDePaginas > 0 {
		return page+1 < p.QuantidadeDePaginas
	}
	return got >= statementPerPage
}

func receivedLine(p bcbpix.Pix) providerclient.StatementLine {
	l := providerclient.StatementLine{Kind: providerclient.KindCharge, Direction: providerclient.In, ProviderID: p.Txid,
		ExternalID: p.Txid, EndToEndID: p.EndToEndID, Status: providerclient.StatusPaid, SettledAt: bcbpix.ParseTime(p.Horario)}
	l.Amount, _ = bcbpix.ParseAmount(p.Valor)
	return l
}

func refundLine(d bcbpix.Devolucao) providerclient.StatementLine {
	t := devolucaoTransaction(d)
	return providerclient.StatementLine{Kind: t.Kind, Direction: providerclient.Out, ProviderID: d.ID, ExternalID: d.ID,
		EndToEndID: d.RtrID, Amount: t.Amount, Status: providerclient.StatusCompleted, SettledAt: t.SettledAt}
}

func sentLine(s bcbpix.Sent) providerclient.StatementLine {
	t := sentTransaction(s)
	return providerclient.StatementLine{Kind: providerclient.KindPayout, Direction: providerclient.Out, ProviderID: s.IDEnvio,
		ExternalID: s.IDEnvio, EndToEndID: s.EndToEndID, Amount: t.Amount, Status: providerclient.StatusCompleted, SettledAt: t.SettledAt}
}
