package recurrence

import (
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
)

// Periodicity is how often a recurrence charges. The BCB allows five:
// semanal, mensal, trimestral, semestral and anual ([IN 436] art. 2;
// the rec's calendario.periodicidade [API Pix]).
type Periodicity string

// Periodicities.
const (
	Weekly     Periodicity = "WEEKLY"
	Monthly    Periodicity = "MONTHLY"
	Quarterly  Periodicity = "QUARTERLY"
	Semiannual Periodicity = "SEMIANNUAL"
	Annual     Periodicity = "ANNUAL"
)

// Periodicities lists them, shortest first.
var Periodicities = []Periodicity{Weekly, Monthly, Quarterly, Semiannual, Annual}

// months is each month-based periodicity's length in months.
var months = map[Periodicity]int{Monthly: 1, Quarterly: 3, Semiannual: 6, Annual: 12}

// Valid reports whether p is one of the five.
func (p Periodicity) Valid() bool { return p == Weekly || months[p] > 0 }

// BCB is p's name in calendario.periodicidade.
func (p Periodicity) BCB() string { return periodicityBCB[p] }

var periodicityBCB = map[Periodicity]string{
	Weekly: "SEMANAL", Monthly: "MENSAL", Quarterly: "TRIMESTRAL", Semiannual: "SEMESTRAL", Annual: "ANUAL",
}

// PeriodicityFromBCB is PixGate's name for a calendario.periodicidade.
func PeriodicityFromBCB(name string) (Periodicity, bool) {
	for p, n := range periodicityBCB {
		if n == name {
			return p, true
		}
	}
	return "", false
}

// After is the day n periods after start (n ≥ 0). Months are counted from
// start every time, never from the previous cycle, and a day the month
// lacks falls on its last day: a monthly start on 31 January is due on 28
// (or 29) February, 31 March, 30 April. The BCB's documents read here do
// not say how a short month is handled; this is Woovi's rule ("se ela for
// criada no dia 31 e o próximo mês não tiver essa data, ela será ajustada
// para o último dia do mês", [Woovi] pix-automatic-state-machine.md), and
// it keeps every cycle's due date inside its own month, as the BCB asks
// one charge per cycle ([API Pix], CobROperacaoInvalida: a CobR "com
// calendario.dataDeVencimento no mesmo ciclo").
func (p Periodicity) After(start due.Date, n int) due.Date {
	if p == Weekly {
		return start.AddDays(7 * n)
	}
	m := int(start.Month) - 1 + n*months[p]
	y, mon := start.Year+m/12, time.Month(m%12+1)
	return due.Date{Year: y, Month: mon, Day: min(start.Day, daysIn(y, mon))}
}

// daysIn is the number of days of month m of year y.
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// monthsBetween is how many whole calendar months separate a's month from
// b's (b's month minus a's), ignoring days.
func monthsBetween(a, b due.Date) int {
	return (b.Year-a.Year)*12 + int(b.Month) - int(a.Month)
}
