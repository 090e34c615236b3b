package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownFlag adds to pflag's "unknown flag: --nme" the flags of cmd the
// user may have meant (cobra suggests mistyped commands, not flags): those
// within cobra's suggestion distance of the name typed, or that start with
// it, and a pointer to the command's help. It is nil for other errors.
func unknownFlag(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedShortnames() != "" || ne.GetSpecifiedName() == "" {
		return nil
	}
	typed := strings.ToLower(ne.GetSpecifiedName())
	distance := cmd.SuggestionsMinimumDistance
	if distance <= 0 {
		distance = 2 // cobra's default for commands
	}
	var near []string
	visit := func(f *pflag.Flag) {
		if f.Hidden || slices.Contains(near, "--"+f.Name) {
			return
		}
		if editDistance(typed, f.Name) <= distance || strings.HasPrefix(f.Name, typed) {
			near = append(near, "--"+f.Name)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	help := fmt.Sprintf("%s --help lists its flags", cmd.CommandPath())
	switch len(near) {
	case 0:
		return fmt.Errorf("%w; %s", err, help)
	case 1:
		return fmt.Errorf("%w; did you mean %s? (%s)", err, near[0], help)
	}
	return fmt.Errorf("%w; did you mean one of %s? (%s)", err, strings.Join(near, ", "), help)
}
