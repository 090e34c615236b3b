package due

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// casesDoc is the rule book whose table of cases AmountOn must answer.
const casesDoc = "../../../docs/due-charges.md"

// docCase is one row of the table of cases.
type docCase struct {
	line             int
	name             string
	original         money.Money
	terms            string
	day              Date
	pastValidity     bool
	rebate, discount money.Money
	fine, interest   money.Money
	total            money.Money
}

// readCases reads the rows of the table under "## Cases".
func readCases(t *testing.T) []docCase {
	t.Helper()
	f, err := os.Open(casesDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docCase
	in, line := false, 0
	for s := bufio.NewScanner(f); s.Scan(); {
		line++
		text := s.Text()
		if strings.HasPrefix(text, "## ") {
			in = text == "## Cases"
		}
		if !in || !strings.HasPrefix(text, "| ") || !strings.Contains(text, "`{") {
			continue
		}
		out = append(out, parseCase(t, line, text))
	}
	return out
}

func parseCase(t *testing.T, line int, text string) docCase {
	t.Helper()
	cells := strings.Split(strings.Trim(text, "|"), "|")
	if len(cells) != 9 {
		t.Fatalf("%s:%d: %d cells, want 9", casesDoc, line, len(cells))
	}
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	c := docCase{line: line, name: cells[0], terms: strings.Trim(cells[2], "`")}
	c.original = parseMoney(t, line, cells[1])
	c.day = mustDate(t, cells[3])
	if cells[8] == "past validity" {
		c.pastValidity = true
		return c
	}
	c.rebate, c.discount = parseMoney(t, line, cells[4]), parseMoney(t, line, cells[5])
	c.fine, c.interest = parseMoney(t, line, cells[6]), parseMoney(t, line, cells[7])
	c.total = parseMoney(t, line, cells[8])
	return c
}

// TestDocumentedCases checks every row of the table in docs/due-charges.md
// against AmountOn.
func TestDocumentedCases(t *testing.T) {
	cases := readCases(t)
	if len(cases) < 20 {
		t.Fatalf("%s holds %d cases, want at least 20", casesDoc, len(cases))
	}
	for _, c := range cases {
		var terms Terms
		if err := json.Unmarshal([]byte(c.terms), &terms); err != nil {
			t.Errorf("line %d (%s): terms: %v", c.line, c.name, err)
			continue
		}
		terms.Original = c.original
		terms.Normalize()
		got, err := terms.AmountOn(c.day)
		if c.pastValidity {
			if !errors.Is(err, ErrPastValidity) {
				t.Errorf("line %d (%s): AmountOn(%s) = %+v, %v; want ErrPastValidity", c.line, c.name, c.day, got, err)
			}
			continue
		}
		want := Breakdown{Day: c.day, Original: c.original, Rebate: c.rebate, Discount: c.discount,
			Fine: c.fine, Interest: c.interest, Total: c.total}
		if err != nil || got != want {
			t.Errorf("line %d (%s): AmountOn(%s)\n got %+v, %v\nwant %+v", c.line, c.name, c.day, got, err, want)
		}
		if sum := got.Original - got.Rebate - got.Discount + got.Fine + got.Interest; sum != got.Total {
			t.Errorf("line %d (%s): the parts add up to %s, the total is %s", c.line, c.name, sum, got.Total)
		}
	}
}
