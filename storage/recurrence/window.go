package recurrence

import (
	"errors"

	"github.com/pixgate/pixgate/storage/money/due"
)

// The scheduling window: the receiver's bank sends a cycle's payment
// instruction to the payer's bank between ten and two calendar days before
// the due date ("o banco do recebedor deverá enviar as instruções de
// pagamento entre dez a dois dias corridos antes da liquidação do valor",
// the BCB's rules as reported by Jovem Pan, 2023-12-07,
// jovempan.com.br/noticias/economia/banco-central-divulga-regras-do-pix-automatico.html;
// "as cobranças recorrentes podem ser feitas de 2 a 10 dias antes da data
// da cobrança", [Woovi] pix-automatic-cobr-manual.md; the payer is
// notified "entre 10 e 2 dias antes do débito", Folha de Pernambuco,
// 2025-06). The payer's bank then has two hours to schedule it (Jovem Pan).
const (
	LeadMaxDays = 10 // the earliest: due date − 10
	LeadMinDays = 2  // the latest: due date − 2
)

// ErrWindowClosed: the cycle's charge can no longer be sent: fewer than
// LeadMinDays days are left before its due date.
var ErrWindowClosed = errors.New("the scheduling window has closed: a cycle's charge is sent at least 2 days before its due date")

// Window is the days on which a cycle's charge may be sent, both included.
type Window struct {
	Open  due.Date `json:"open"`
	Close due.Date `json:"close"`
}

// ScheduleWindow is the window of a cycle due on d.
func ScheduleWindow(d due.Date) Window {
	return Window{Open: d.AddDays(-LeadMaxDays), Close: d.AddDays(-LeadMinDays)}
}

// Contains reports whether day is in the window.
func (w Window) Contains(day due.Date) bool { return !day.Before(w.Open) && !day.After(w.Close) }

// SendDay is the day PixGate sends the charge of a cycle due on d, asked
// on today: the window's first day, or today when the window is already
// open (PixGate's choice: the earliest day leaves the most days to send it
// again should the provider be down, and gives the payer the longest
// notice). ErrWindowClosed after the window's last day.
func SendDay(d, today due.Date) (due.Date, error) {
	w := ScheduleWindow(d)
	switch {
	case today.After(w.Close):
		return due.Date{}, ErrWindowClosed
	case today.Before(w.Open):
		return w.Open, nil
	}
	return today, nil
}

// FirstSchedulable is the first cycle of c whose charge can still be sent
// on today, or false when none is left. A recurrence approved late (the
// consent takes up to 30 days) starts from it: the cycles before it were
// due too soon to be charged.
func (c Calendar) FirstSchedulable(today due.Date) (int, bool) {
	earliest := today.AddDays(LeadMinDays)
	n := 0
	if !earliest.Before(c.Start) {
		n = c.cycleAt(earliest)
		if d := c.Periodicity.After(c.Start, n); d.Before(earliest) {
			n++
		}
	}
	if _, ok := c.Due(n); !ok {
		return 0, false
	}
	return n, true
}
