package main

import (
	"bufio"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/bcrypt"

	"github.com/pixgate/pixgate/worker"
)

// monitoringUsers reads PIXGATE_MONITORING_USERS_FILE, the operators who
// may use the worker's /monitoring; none when it is not set.
func (c *cli) monitoringUsers() (map[string]string, error) {
	if c.cfg.MonitoringUsers == "" {
		return nil, nil
	}
	f, err := os.Open(c.cfg.MonitoringUsers)
	if err != nil {
		return nil, fmt.Errorf("PIXGATE_MONITORING_USERS_FILE: %w", err)
	}
	defer f.Close()
	users, err := worker.ReadMonitorUsers(f)
	if err != nil {
		return nil, fmt.Errorf("PIXGATE_MONITORING_USERS_FILE %s: %w", c.cfg.MonitoringUsers, err)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("PIXGATE_MONITORING_USERS_FILE %s names no operator (a line is NAME:HASH; pixgate monitoring-user NAME makes one)", c.cfg.MonitoringUsers)
	}
	return users, nil
}

func (c *cli) monitoringUserCommand() *cobra.Command {
	var fromStdin bool
	cmd := &cobra.Command{
		Use:   "monitoring-user NAME",
		Short: "Print a line of PIXGATE_MONITORING_USERS_FILE for an operator of /monitoring, with a new password",
		Long: `Make a password for an operator of the worker's /monitoring (asynqmon) and
print the NAME:HASH line to append to PIXGATE_MONITORING_USERS_FILE (a bcrypt
hash, as htpasswd -nB writes it) on stdout, and the password, once, on
stderr. With --password-stdin the password is read from the first line of
standard input instead, and not printed. Workers read the file at start.`,
		Example: `  pixgate monitoring-user ana >> /etc/pixgate/monitoring-users
  printf '%s\n' "$PASSWORD" | pixgate monitoring-user ana --password-stdin`,
		Args: oneArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if strings.ContainsAny(name, ":\n\r") || strings.TrimSpace(name) != name || name == "" {
				return fmt.Errorf("monitoring-user: %q cannot be a name (no colon, line break or surrounding space)", name)
			}
			password := rand.Text()
			if fromStdin {
				line, _ := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				password = strings.TrimRight(line, "\r\n")
				if password == "" {
					return errors.New("monitoring-user --password-stdin: no password on standard input")
				}
				if len(password) < 12 {
					return errors.New("monitoring-user --password-stdin: the password must be at least 12 characters")
				}
			}
			hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
			if err != nil {
				return fmt.Errorf("monitoring-user: %w", err) // bcrypt refuses more than 72 bytes
			}
			c.printf("%s:%s\n", name, hash)
			if !fromStdin {
				fmt.Fprintf(c.stderr, "password of %s: %s (shown once; give it to %s)\n", name, password, name)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&fromStdin, "password-stdin", false, "read the password from standard input instead of making one")
	return cmd
}
