package recurrence

import "github.com/pixgate/pixgate/storage/money/due"

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
