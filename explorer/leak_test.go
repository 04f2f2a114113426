//go:build !js

package explorer_test

import (
	"net/http"
	"runtime"
	"testing"
	"time"
)

// checkNoLeaks fails the test if goroutines started during it are still
// running once it ends (after letting them settle), like goleak does.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		var after int
		for i := 0; i < 100; i++ {
			// Idle keep-alive connections are pooled, not leaked.
			http.DefaultTransport.(*http.Transport).CloseIdleConnections()
			after = runtime.NumGoroutine()
			if after <= before {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutine leak: %d goroutines before, %d after:\n%s", before, after, buf[:n])
	})
}
