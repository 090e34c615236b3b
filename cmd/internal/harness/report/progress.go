package report

import (
	"fmt"
	"time"
)

// Stepf prints one line of a run's progress on standard output, behind the
// time of day, as every harness run does while it runs.
func Stepf(format string, args ...any) {
	fmt.Printf("%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
