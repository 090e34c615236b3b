package provideraudit

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/worker/statements"
)

// batchSize is how many lines are matched with PixGate's records at once:
// one query for each batch of the lines that name no record already met.
const batchSize = 500

// transfers reads every provider's statement of each day of the window,
// matches each transfer line (money out: a withdrawal, a refund, a MED
// return) with PixGate's record and judges each record a line matched;
// then, when every provider's statements were read whole (allOpen: every
// provider's books were opened), it looks for each transfer PixGate
// completed over the days that are over in the lines.
func (a *audit) transfers(ctx context.Context, providers []Provider, allOpen bool, r *Report) error {
	m := &matcher{records: a.records, byID: map[uuid.UUID]*matched{}}
	whole := allOpen
	for _, p := range providers {
		if !p.Books.Capabilities().Statement {
			r.Findings = append(r.Findings, unreadable(p.Name, statements.ErrNoStatement.Error()+
				" (its contract has none; of the family's, only the default provider with PIXGATE_PROVIDER_EXTENSIONS=true serves PixGate's)"+
				": its transfers are judged on the other providers' statements alone, and no transfer is judged absent"))
			whole = false
			continue
		}
		for day := a.cfg.Since; !day.Start().After(a.cfg.Until.Start()); day = day.AddDays(1) {
			err := m.read(ctx, p, day)
			if err == nil {
				continue
			}
			if own, ok := asPixgate(err); ok {
				return own
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.Findings = append(r.Findings, unreadable(p.Name, fmt.Sprintf("its statement of %s cannot be read (%v): its later days are not read, and no transfer is judged absent", day, err)))
			whole = false
			break
		}
	}
	r.Lines, r.Matched = m.lines, m.matchedLines

	ids := make([]uuid.UUID, 0, len(m.byID))
	var odd []uuid.UUID // records some line settled for another amount
	for id, rec := range m.byID {
		ids = append(ids, id)
		if slices.ContainsFunc(rec.paid, func(s Settlement) bool { return s.Amount != rec.t.Amount }) {
			odd = append(odd, id)
		}
	}
	adjusted, err := a.records.AmountAdjustments(ctx, odd)
	if err != nil {
		return err
	}
	slices.SortFunc(ids, func(x, y uuid.UUID) int { return bytes.Compare(x[:], y[:]) })
	for _, id := range ids {
		r.Findings = append(r.Findings, judge(m.byID[id], adjusted[id])...)
	}

	r.AbsenceJudged = whole
	if !whole {
		return nil
	}
	from, to := a.completedSpan()
	if !from.Before(to) {
		return nil
	}
	r.CompletedFrom, r.CompletedTo = &from, &to
	return a.records.EachTransferCompleted(ctx, from, to, func(t storage.Transfer) error {
		r.Completed++
		if _, ok := m.byID[t.ID]; !ok {
			r.Findings = append(r.Findings, completedButUnpaid(t))
		}
		return nil
	})
}

// completedSpan is when the transfers judged absent completed: within the
// window, on days that are over, a boundary away from the window's first
// instant and its last (a line of one may be dated on a day not read).
func (a *audit) completedSpan() (from, to time.Time) {
	b := a.cfg.Boundary
	from, to = a.cfg.Since.Start().Add(b), a.cfg.Until.End().Add(-b)
	if over := providerclient.DayOf(a.cfg.Now().Add(-b)).Start(); over.Before(to) {
		to = over
	}
	return from, to
}

// matched is a record of PixGate's and every line that settled it.
type matched struct {
	t    storage.Transfer
	paid []Settlement
}

// matcher matches statement lines with PixGate's records as it reads them,
// keeping each record a line named.
type matcher struct {
	records             Records
	byID                map[uuid.UUID]*matched
	lines, matchedLines int
}

// read reads p's statement of day, matching its transfer lines batch by
// batch.
func (m *matcher) read(ctx context.Context, p Provider, day providerclient.Day) error {
	batch := make([]storage.StatementLine, 0, batchSize)
	err := statements.ReadStatement(ctx, p.Books, day, func(l storage.StatementLine) error {
		if l.Direction >= 0 || !isTransfer(l.Kind) {
			return nil // a charge's money in: reconciled elsewhere
		}
		batch = append(batch, l)
		if len(batch) < batchSize {
			return nil
		}
		err := m.match(ctx, p.Name, batch)
		batch = batch[:0]
		return err
	})
	if err != nil {
		return err
	}
	return m.match(ctx, p.Name, batch)
}

func isTransfer(kind string) bool {
	return slices.Contains(storage.TransferKinds, storage.TransferKind(kind))
}

// refKey is a transfer of a kind by one of its ids.
type refKey struct {
	kind storage.TransferKind
	id   string
}

// match finds the record of each line of provider's and keeps the line as
// one of its settlements. A line names its record by PixGate's id (the
// external id, in the contract's form), failing that by the end-to-end id
// (a contract whose statement echoes no id of PixGate's), failing that by
// the provider's own id (a MED return, which the provider makes and names
// itself); the latter two of the line's kind, the provider's id at that
// provider. A line that names no record of PixGate's is the
// reconciliation's to report (missing in PixGate), not the audit's.
func (m *matcher) match(ctx context.Context, provider string, lines []storage.StatementLine) error {
	if len(lines) == 0 {
		return nil
	}
	var (
		ids        []uuid.UUID
		e2es, pixs []string
	)
	for _, l := range lines {
		if l.RecordID != nil && m.byID[*l.RecordID] != nil {
			continue
		}
		if l.RecordID != nil {
			ids = append(ids, *l.RecordID)
		}
		if l.EndToEndID != "" {
			e2es = append(e2es, l.EndToEndID)
		}
		if l.ProviderID != "" {
			pixs = append(pixs, l.ProviderID)
		}
	}
	fresh, byE2E, byPix := map[uuid.UUID]*matched{}, map[refKey]*matched{}, map[refKey]*matched{}
	if len(ids)+len(e2es)+len(pixs) > 0 {
		found, err := m.records.TransfersByStatementRefs(ctx, provider, ids, e2es, pixs)
		if err != nil {
			return pixgateError{err}
		}
		for _, t := range found {
			rec := m.byID[t.ID]
			if rec == nil {
				rec = &matched{t: t}
			}
			fresh[t.ID] = rec
			if t.EndToEndID != nil && *t.EndToEndID != "" {
				byE2E[refKey{t.Kind, *t.EndToEndID}] = rec
			}
			if t.PixID != nil && *t.PixID != "" && t.Provider == provider {
				byPix[refKey{t.Kind, *t.PixID}] = rec
			}
		}
	}
	for _, l := range lines {
		m.lines++
		var rec *matched
		if l.RecordID != nil {
			if rec = m.byID[*l.RecordID]; rec == nil {
				rec = fresh[*l.RecordID]
			}
		}
		kind := storage.TransferKind(l.Kind)
		if rec == nil && l.EndToEndID != "" {
			rec = byE2E[refKey{kind, l.EndToEndID}]
		}
		if rec == nil && l.ProviderID != "" {
			rec = byPix[refKey{kind, l.ProviderID}]
		}
		if rec == nil {
			continue
		}
		m.matchedLines++
		m.byID[rec.t.ID] = rec
		rec.paid = append(rec.paid, Settlement{Provider: provider, Amount: l.Amount, SettledAt: l.SettledAt, ProviderID: l.ProviderID})
	}
	return nil
}

// judge is what the settlements of a record say about it. adjusted is
// what reconciliation resolutions booked onto the float for its amount
// (AmountAdjustments): the record moves its amount less that.
func judge(rec *matched, adjusted money.Money) []Finding {
	t := rec.t
	var out []Finding
	if len(rec.paid) > 1 {
		out = append(out, transferFinding(PaidTwice, rec, rec.paid,
			fmt.Sprintf("%s settled %d times: %s", describe(t), len(rec.paid), settlements(rec.paid))))
	}
	if t.Status == storage.TransferFailed {
		out = append(out, transferFinding(FailedButPaid, rec, rec.paid,
			fmt.Sprintf("%s: PixGate failed it, its money back in the wallet, yet it settled: %s", describe(t), settlements(rec.paid))))
	}
	var elsewhere, wrong []Settlement
	for _, s := range rec.paid {
		if s.Provider != t.Provider {
			elsewhere = append(elsewhere, s)
		}
		if s.Amount != t.Amount-adjusted {
			wrong = append(wrong, s)
		}
	}
	if len(elsewhere) > 0 {
		out = append(out, transferFinding(PaidElsewhere, rec, elsewhere,
			fmt.Sprintf("%s: PixGate records it at %s, yet it settled at another provider: %s", describe(t), t.Provider, settlements(elsewhere))))
	}
	if len(wrong) > 0 {
		moves := t.Amount.String()
		if adjusted != 0 {
			moves = fmt.Sprintf("%s (%s, and %s booked by reconciliation)", t.Amount-adjusted, t.Amount, -adjusted)
		}
		out = append(out, transferFinding(AmountMismatch, rec, wrong,
			fmt.Sprintf("%s: PixGate's record moves %s, the provider settled another amount: %s", describe(t), moves, settlements(wrong))))
	}
	return out
}

func completedButUnpaid(t storage.Transfer) Finding {
	at := ""
	if t.FinishedAt != nil {
		at = " at " + t.FinishedAt.In(providerclient.StatementZone).Format(time.DateTime)
	}
	return transferFinding(CompletedButUnpaid, &matched{t: t}, nil,
		fmt.Sprintf("%s: PixGate completed it%s (its money gone from the float), yet no provider's statement shows it settled", describe(t), at))
}

func transferFinding(check string, rec *matched, paid []Settlement, detail string) Finding {
	t := rec.t
	id, amount := t.ID, t.Amount
	return Finding{Check: check, Provider: t.Provider, Detail: detail, Kind: t.Kind, ID: &id, Status: t.Status, Amount: &amount, Paid: paid}
}

// describe names a record: kind, id, provider, amount, status.
func describe(t storage.Transfer) string {
	return fmt.Sprintf("%s %s (%s, %s, %s)", t.Kind, t.ID, t.Provider, t.Amount, t.Status)
}

// settlements lists where and for how much a record settled.
func settlements(paid []Settlement) string {
	each := make([]string, len(paid))
	for i, s := range paid {
		each[i] = fmt.Sprintf("%s at %s on %s", s.Amount, s.Provider, s.SettledAt.In(providerclient.StatementZone).Format(time.DateTime))
		if s.ProviderID != "" {
			each[i] += " (its id " + s.ProviderID + ")"
		}
	}
	return strings.Join(each, "; ")
}
