package stack

import "syscall"

// dieWithParent makes the child end (SIGTERM) when the harness that
// started it dies, even by SIGKILL or the kernel's OOM killer: orphaned
// servers would hold their database connections and ports, and the next
// run on the machine would find Postgres full.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGTERM }
