package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
)

// addOperatorFlag adds --operator, who decides an operator action, kept in
// its audit record. Its usage says it is required where $USER is not set
// (many containers and CI jobs), before anyone meets the refusal.
func addOperatorFlag(cmd *cobra.Command, operator *string) {
	cmd.Flags().StringVar(operator, "operator", "", "who decides, kept in the audit trail (default $USER; required where $USER is not set, as in many containers and CI jobs)")
}

// errNoOperator names the flag to pass when neither it nor $USER says who
// decides.
var errNoOperator = errors.New("--operator NAME is required: it says who decides, for the audit trail, and $USER, its default, is not set here")

// operatorName is who decides: --operator, else $USER.
func (c *cli) operatorName(flag string) (string, error) {
	name := orDefault(flag, c.environ["USER"])
	if strings.TrimSpace(name) == "" {
		return "", errNoOperator
	}
	return name, nil
}
