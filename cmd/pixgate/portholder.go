package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// portHolder names the process listening on TCP port, as "name (pid N)",
// from Linux's /proc: the sockets in /proc/net/tcp{,6} and the descriptors
// under /proc/PID/fd. It is empty where that cannot be told (another
// system, another user's process without the right to look).
func portHolder(port string) string {
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return ""
	}
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		listeningInodes(table, uint16(p), inodes)
	}
	if len(inodes) == 0 {
		return ""
	}
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		target, err := os.Readlink(fd)
		if err != nil || !strings.HasPrefix(target, "socket:[") {
			continue
		}
		if inodes[strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")] {
			pid := strings.Split(fd, "/")[2]
			comm, _ := os.ReadFile("/proc/" + pid + "/comm")
			if name := strings.TrimSpace(string(comm)); name != "" {
				return fmt.Sprintf("%s (pid %s)", name, pid)
			}
			return "pid " + pid
		}
	}
	return ""
}

// listeningInodes adds to inodes those of the sockets of table listening
// on port. A line reads: sl local_address rem_address st ... inode, with
// local_address as hex IP:PORT and st 0A for LISTEN.
func listeningInodes(table string, port uint16, inodes map[string]bool) {
	f, err := os.Open(table)
	if err != nil {
		return
	}
	defer f.Close()
	want := fmt.Sprintf(":%04X", port)
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], want) {
			continue
		}
		inodes[fields[9]] = true
	}
}
