package worker

import (
	"testing"
	"unsafe"
)

// deepCall stands for a task's deepest calls: a frame of most of
// taskStackBytes.
//
//go:noinline
func deepCall() byte {
	var frame [taskStackBytes * 3 / 4]byte
	return frame[stackProbe]
}

// TestGrowStackGrowsTheStackOnceUpFront: on a new goroutine, growStack
// moves the stack to one that holds taskStackBytes (a local's address
// changes), and a call as deep as a task's then runs on it without another
// growth (the address stays).
func TestGrowStackGrowsTheStackOnceUpFront(t *testing.T) {
	addrs := make(chan [3]uintptr)
	go func() {
		var local int
		at := func() uintptr { return uintptr(unsafe.Pointer(&local)) }
		before := at()
		growStack()
		grown := at()
		deepCall()
		addrs <- [3]uintptr{before, grown, at()}
	}()
	a := <-addrs
	if a[0] == a[1] {
		t.Fatal("growStack left the goroutine on its first stack")
	}
	if a[1] != a[2] {
		t.Fatal("a task-deep call grew the stack again after growStack")
	}
}
