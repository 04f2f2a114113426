//go:build unix

package xmlscan

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, which a loaded
// machine does not inflate the way it inflates wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
