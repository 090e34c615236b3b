//go:build !linux

package stack

import "syscall"

// dieWithParent: only Linux tells a child its parent died.
func dieWithParent(*syscall.SysProcAttr) {}
