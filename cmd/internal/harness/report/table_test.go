package report

import (
	"strings"
	"testing"
)

func TestTableWritesMarkdown(t *testing.T) {
	var b strings.Builder
	tb := NewTable(&b, "lr", "Name", "ops/s", "Note")
	tb.Row("a", "1.0", "")
	tb.Rowf("%s | %d | %s", "b", 2, "x")
	want := "| Name | ops/s | Note |\n|---|--:|---|\n| a | 1.0 | |\n| b | 2 | x |\n"
	if b.String() != want || tb.Err() != nil {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
