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

// TestGrowStackGrowsTheStackOnceUpFront: on a new goroutine, a call as deep
// as a task's runs after growStack without the stack growing again (a
// local's address stays put; a growth moves the stack). Without growStack
// the deep call grows it: a new goroutine starts with the average stack
// in use, a few KB.
func TestGrowStackGrowsTheStackOnceUpFront(t *testing.T) {
	addrs := make(chan [2]uintptr)
	go func() {
		var local int
		at := func() uintptr { return uintptr(unsafe.Pointer(&local)) }
		growStack()
		grown := at()
		deepCall()
		addrs <- [2]uintptr{grown, at()}
	}()
	if a := <-addrs; a[0] != a[1] {
		t.Fatal("a task-deep call grew the stack again after growStack")
	}
}
