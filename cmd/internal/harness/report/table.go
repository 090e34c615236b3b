// Package report writes the harness's Markdown (tables, their rows, and
// the figures in them) and its progress lines.
package report

import (
	"fmt"
	"io"
	"strings"
)

// Table writes one Markdown table to w. The first write error is kept and
// every later write skipped.
type Table struct {
	w   io.Writer
	err error
}

// NewTable writes the header row and the alignment row: align holds one
// letter per column, 'l' (---) or 'r' (--:); columns past its end are
// left-aligned.
func NewTable(w io.Writer, align string, cols ...string) *Table {
	t := &Table{w: w}
	t.Row(cols...)
	marks := make([]string, len(cols))
	for i := range cols {
		marks[i] = "---"
		if i < len(align) && align[i] == 'r' {
			marks[i] = "--:"
		}
	}
	t.write("|" + strings.Join(marks, "|") + "|\n")
	return t
}

// Row writes one row; an empty cell is written as "| |".
func (t *Table) Row(cells ...string) {
	var b strings.Builder
	for _, c := range cells {
		if c == "" {
			b.WriteString("| ")
		} else {
			b.WriteString("| " + c + " ")
		}
	}
	b.WriteString("|\n")
	t.write(b.String())
}

// Rowf writes one row from format, whose cells are separated by " | ".
func (t *Table) Rowf(format string, args ...any) {
	t.write("| " + fmt.Sprintf(format, args...) + " |\n")
}

// Err is the first write error.
func (t *Table) Err() error { return t.err }

func (t *Table) write(s string) {
	if t.err == nil {
		_, t.err = io.WriteString(t.w, s)
	}
}
