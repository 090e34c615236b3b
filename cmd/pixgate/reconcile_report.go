package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// reconRunView is a run as the reports print it; amounts are in reais.
type reconRunView struct {
	Run               int64            `json:"run"`
	Provider          string           `json:"provider"`
	Day               string           `json:"day"`
	Trigger           string           `json:"trigger"`
	Status            string           `json:"status"`
	Error             *string          `json:"error"`
	Reconciled        bool             `json:"reconciled"`
	DayStatus         string           `json:"day_status"`
	FinishedAt        time.Time        `json:"finished_at"`
	GraceUntil        time.Time        `json:"grace_until"`
	Lines             int64            `json:"lines"`
	Records           int64            `json:"records"`
	Counts            map[string]int64 `json:"counts"`
	OpenExceptions    int64            `json:"open_exceptions"`
	OpeningBalance    *money.Money     `json:"opening_balance"`
	ClosingBalance    *money.Money     `json:"closing_balance"`
	LinesNet          money.Money      `json:"statement_net"`
	FloatNet          money.Money      `json:"pixgate_net"`
	DayDifference     *money.Money     `json:"day_difference"`
	Explained         money.Money      `json:"explained"`
	Unexplained       *money.Money     `json:"unexplained"`
	FloatAtClose      *money.Money     `json:"pixgate_at_close"`
	ClosingDifference *money.Money     `json:"closing_difference"`
}

func runView(r storage.ReconRun) reconRunView {
	counts := map[string]int64{}
	for k, n := range r.ByKind {
		counts[string(k)] = n
	}
	return reconRunView{Run: r.ID, Provider: r.Provider, Day: r.Day, Trigger: r.Trigger, Status: string(r.Status), Error: r.Error,
		Reconciled: r.Reconciled(), DayStatus: string(r.DayStatus), FinishedAt: r.FinishedAt, GraceUntil: r.GraceUntil,
		Lines: r.Lines, Records: r.Records, Counts: counts, OpenExceptions: r.OpenExceptions,
		OpeningBalance: r.OpeningBalance, ClosingBalance: r.ClosingBalance, LinesNet: r.LinesNet, FloatNet: r.FloatNet,
		DayDifference: r.DayDifference, Explained: r.Explained, Unexplained: r.Unexplained,
		FloatAtClose: r.FloatAtClose, ClosingDifference: r.ClosingDifference}
}

// reconItemView is an item as the reports print it.
type reconItemView struct {
	ID           uuid.UUID   `json:"id"`
	Kind         string      `json:"kind"`
	ExpectedKind *string     `json:"expected_kind"`
	Status       string      `json:"status"`
	Line         *lineView   `json:"line"`
	Record       *recordView `json:"record"`
	Delta        money.Money `json:"delta"`
	Adjusted     money.Money `json:"adjusted"`
	AdjustmentID *int64      `json:"ledger_transaction_id"`
	ResolvedAt   *time.Time  `json:"resolved_at"`
	ResolvedBy   *string     `json:"resolved_by"`
	Resolution   *string     `json:"resolution"`
}

type lineView struct {
	Kind       string       `json:"kind"`
	ProviderID string       `json:"provider_id"`
	ExternalID string       `json:"external_id"`
	EndToEndID string       `json:"end_to_end_id"`
	Amount     *money.Money `json:"amount"`
	Fee        *money.Money `json:"fee"`
	Status     string       `json:"status"`
	SettledAt  *time.Time   `json:"settled_at"`
}

type recordView struct {
	Kind      string       `json:"kind"`
	ID        *uuid.UUID   `json:"id"`
	Amount    *money.Money `json:"amount"`
	Status    string       `json:"status"`
	SettledAt *time.Time   `json:"settled_at"`
}

func itemView(it storage.ReconItem) reconItemView {
	v := reconItemView{ID: it.ID, Kind: string(it.Kind), ExpectedKind: it.ExpectedKind, Status: string(it.Status), Delta: it.Delta,
		Adjusted: it.Adjusted, AdjustmentID: it.AdjustmentID, ResolvedAt: it.ResolvedAt, ResolvedBy: it.ResolvedBy, Resolution: it.Resolution}
	if it.LineKind != nil {
		v.Line = &lineView{Kind: *it.LineKind, ProviderID: deref(it.LineProviderID), ExternalID: deref(it.LineExternalID),
			EndToEndID: deref(it.LineEndToEndID), Amount: it.LineAmount, Fee: it.LineFee, Status: deref(it.LineStatus), SettledAt: it.LineSettledAt}
	}
	if it.RecordKind != nil {
		v.Record = &recordView{Kind: *it.RecordKind, ID: it.RecordID, Amount: it.RecordAmount, Status: deref(it.RecordStatus), SettledAt: it.RecordSettledAt}
	}
	return v
}

func moneyOrDash(m *money.Money) string {
	if m == nil {
		return "-"
	}
	return m.String()
}

// printRunSummary prints the day's figures.
func (c *cli) printRunSummary(r storage.ReconRun) {
	verdict := "does NOT reconcile"
	if r.Reconciled() {
		verdict = "reconciles"
	}
	c.printf("%s %s %s (run %d, %s, %s)\n", r.Provider, r.Day, verdict, r.ID, r.Trigger, r.FinishedAt.Format(timeLayout))
	if r.Status != storage.ReconRunDone {
		c.printf("  the run failed: %s\n", deref(r.Error))
		return
	}
	c.printf("  statement lines %d, PixGate's records of the day %d, matched %d, expected %d (until %s)\n",
		r.Lines, r.Records, r.Matched, r.Expected, r.GraceUntil.Format(timeLayout))
	for _, k := range storage.ReconExceptionKinds {
		if n := r.ByKind[k]; n > 0 {
			c.printf("  %-22s %d\n", k, n)
		}
	}
	c.printf("  open exceptions %d\n", r.OpenExceptions)
	c.printf("  the provider's day: opening %s, closing %s; statement net %s, PixGate's net %s\n",
		moneyOrDash(r.OpeningBalance), moneyOrDash(r.ClosingBalance), r.LinesNet, r.FloatNet)
	c.printf("  day's balance difference %s, explained by the items %s, unexplained %s\n",
		moneyOrDash(r.DayDifference), r.Explained, moneyOrDash(r.Unexplained))
	if r.ClosingDifference != nil {
		c.printf("  at the close: the provider holds %s, PixGate expects %s there (difference %s, carried from earlier days included)\n",
			moneyOrDash(r.ClosingBalance), moneyOrDash(r.FloatAtClose), r.ClosingDifference)
	}
}

func (c *cli) reportText(cmd *cobra.Command, db *storage.DB, r storage.ReconRun) error {
	c.printRunSummary(r)
	tw := table(c.stdout)
	items := 0
	err := db.ReconciliationItems(cmd.Context(), r.Provider, r.Day, func(it storage.ReconItem) error {
		if items++; items == 1 {
			c.printfTo(tw, "ID\tKIND\tSTATUS\tLINE\tLINE AMOUNT\tRECORD\tRECORD AMOUNT\tDELTA\tNOTE\n")
		}
		kind := string(it.Kind)
		if it.ExpectedKind != nil {
			kind += " (" + *it.ExpectedKind + ")"
		}
		line, record := "-", "-"
		if it.LineKind != nil {
			line = *it.LineKind + " " + firstOf(deref(it.LineEndToEndID), deref(it.LineProviderID), deref(it.LineExternalID))
		}
		if it.RecordKind != nil {
			record = *it.RecordKind + " " + it.RecordID.String() + " " + deref(it.RecordStatus)
		}
		note := ""
		if it.Status == storage.ReconResolved {
			note = "resolved by " + deref(it.ResolvedBy) + ": " + deref(it.Resolution)
		}
		c.printfTo(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", it.ID, kind, it.Status, line, moneyOrDash(it.LineAmount),
			record, moneyOrDash(it.RecordAmount), it.Delta, note)
		return nil
	})
	if err != nil {
		return err
	}
	if items == 0 && r.Status == storage.ReconRunDone {
		c.printf("no items to show: no exception, nothing still expected, no match across midnight (plain matches are counted above, not listed)\n")
	}
	return tw.Flush()
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// reportCSV prints the items, one row each, as they are read.
func (c *cli) reportCSV(cmd *cobra.Command, db *storage.DB, r storage.ReconRun) error {
	w := csv.NewWriter(c.stdout)
	_ = w.Write([]string{"provider", "day", "id", "kind", "expected_kind", "status", "line_kind", "line_provider_id", "line_external_id",
		"line_end_to_end_id", "line_amount", "line_fee", "line_settled_at", "record_kind", "record_id", "record_amount", "record_status",
		"record_settled_at", "delta", "adjusted", "resolved_by", "resolution"})
	err := db.ReconciliationItems(cmd.Context(), r.Provider, r.Day, func(it storage.ReconItem) error {
		rec := ""
		if it.RecordID != nil {
			rec = it.RecordID.String()
		}
		return w.Write([]string{r.Provider, r.Day, it.ID.String(), string(it.Kind), deref(it.ExpectedKind), string(it.Status), deref(it.LineKind),
			deref(it.LineProviderID), deref(it.LineExternalID), deref(it.LineEndToEndID), moneyCell(it.LineAmount), moneyCell(it.LineFee),
			timeCell(it.LineSettledAt), deref(it.RecordKind), rec, moneyCell(it.RecordAmount), deref(it.RecordStatus),
			timeCell(it.RecordSettledAt), it.Delta.String(), it.Adjusted.String(), deref(it.ResolvedBy), deref(it.Resolution)})
	})
	w.Flush()
	if err != nil {
		return err
	}
	return w.Error()
}

func moneyCell(m *money.Money) string {
	if m == nil {
		return ""
	}
	return m.String()
}

func timeCell(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// reportJSON prints {"run": ..., "items": [...]}, the items written as
// they are read, so a day of any size prints in bounded memory.
func (c *cli) reportJSON(cmd *cobra.Command, db *storage.DB, r storage.ReconRun) error {
	head, err := json.Marshal(runView(r))
	if err != nil {
		return err
	}
	c.printf("{\"run\": %s,\n\"items\": [", head)
	n := 0
	err = db.ReconciliationItems(cmd.Context(), r.Provider, r.Day, func(it storage.ReconItem) error {
		b, err := json.Marshal(itemView(it))
		if err != nil {
			return err
		}
		sep := ",\n"
		if n == 0 {
			sep = "\n"
		}
		n++
		c.printf("%s%s", sep, b)
		return nil
	})
	if err != nil {
		return err
	}
	c.printf("\n], \"item_count\": %s}\n", strconv.Itoa(n))
	return nil
}
