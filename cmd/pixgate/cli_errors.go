package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/pixgate/pixgate/storage"
)

// timeLayout is how commands print a time: with its zone, so an operator
// comparing it with a log or a provider's report knows which clock it is.
const timeLayout = time.DateTime + " MST"

// flagError rewrites a flag value pflag could not parse, whose message
// quotes Go's parser ("strconv.ParseInt: parsing "abc": invalid syntax"),
// to say what the flag takes, and suggests the flag an unknown one may
// have meant (unknownFlag).
func flagError(cmd *cobra.Command, err error) error {
	if uerr := unknownFlag(cmd, err); uerr != nil {
		return uerr
	}
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err
	}
	name := "--" + ive.GetFlag().Name
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return fmt.Errorf("%s: %q is not a valid value: %v", name, ive.GetValue(), errors.Unwrap(err))
	}
	switch {
	case errors.Is(ne.Err, strconv.ErrRange):
		return fmt.Errorf("%s: %q is out of range", name, ive.GetValue())
	case ne.Func == "ParseBool":
		return fmt.Errorf("%s: %q is not true or false", name, ive.GetValue())
	case ne.Func == "ParseFloat":
		return fmt.Errorf("%s: %q is not a number", name, ive.GetValue())
	}
	return fmt.Errorf("%s: %q is not a whole number (an id such as 42)", name, ive.GetValue())
}

// oneArg accepts exactly one positional argument and, when it is missing
// or there are more, names it as the command's usage line does
// ("revoke PUBLIC_ID"), where cobra says "accepts 1 arg(s), received 0".
func oneArg(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		return nil
	}
	fields := strings.Fields(cmd.Use)
	arg := "one argument"
	if len(fields) > 1 {
		arg = fields[1]
	}
	if len(args) == 0 {
		return fmt.Errorf("%s needs %s (usage: %s)", subcommand(cmd), arg, cmd.UseLine())
	}
	return fmt.Errorf("%s takes one %s, not %d arguments (usage: %s)", subcommand(cmd), arg, len(args), cmd.UseLine())
}

// subcommand is the command's path below pixgate ("key revoke"): errors
// are printed after "pixgate: " already.
func subcommand(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// postgresError says what to do when Postgres cannot be reached, or
// refuses PixGate's role, naming the setting that says where it is. The
// error names the server by host and port only, never by its URL, which
// may hold a password.
func postgresError(err error) error {
	var refused *pgconn.PgError
	switch {
	case errors.Is(err, storage.ErrUnreachable):
		return fmt.Errorf("%w; start Postgres at that address (make services does, on a developer's machine) "+
			"or set PIXGATE_DATABASE_URL to a server that answers (pixgate env shows the one in force)", err)
	case errors.As(err, &refused) && strings.HasPrefix(refused.Code, "28"): // invalid_authorization_specification, invalid_password
		return fmt.Errorf("%w; check the user and password of PIXGATE_DATABASE_URL", err)
	}
	return err
}

// checkDatabaseURL refuses a PIXGATE_DATABASE_URL that is no Postgres URL
// (postgres:// or postgresql://, or libpq's key=value form) before anything
// tries it, naming the variable and the form expected; a mistyped scheme
// otherwise surfaced as a parser's message naming neither. The value is
// not quoted: it may hold a password.
func checkDatabaseURL(v string) error {
	const expected = "expected postgres://USER[:PASSWORD]@HOST:PORT/NAME?sslmode=disable"
	scheme, _, hasScheme := strings.Cut(v, "://")
	switch {
	case hasScheme && scheme != "postgres" && scheme != "postgresql":
		return fmt.Errorf("PIXGATE_DATABASE_URL: the scheme %q is not postgres:// or postgresql://; %s", scheme, expected)
	case !hasScheme && !strings.Contains(v, "="):
		return fmt.Errorf("PIXGATE_DATABASE_URL is not a Postgres URL (it lacks the postgres:// scheme); %s", expected)
	}
	if _, err := pgx.ParseConfig(v); err != nil {
		return fmt.Errorf("PIXGATE_DATABASE_URL cannot be read (%s); %s", parseProblem(err), expected)
	}
	return nil
}

// parseProblem is what pgx found wrong, without the URL it quotes.
func parseProblem(err error) string {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return "not a valid URL"
	}
	msg := pe.Error() // "cannot parse `URL, password masked`: what"
	if i := strings.LastIndex(msg, "`: "); i >= 0 {
		msg = msg[i+3:]
	}
	return msg
}
